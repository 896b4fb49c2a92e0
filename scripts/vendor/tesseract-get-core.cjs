'use strict';
// tesseract.js's getCore (src/worker-script/node/getCore.js) for the copy in paraph's dist/vendor/tesseract/,
// which holds two of tesseract.js-core's six builds, next to this worker script: the one tesseract.js
// itself loads on Node 22 and later (relaxed SIMD, on x64 and arm64), and the one without SIMD for a
// machine without it. tesseract.js 7 passes getCore `lstmOnly` (a boolean) where it compares an OEM, so
// it loads the full build (both engines) even for OEM.LSTM_ONLY; so does this, which keeps the readings
// as they are.
const { relaxedSimd } = require('wasm-feature-detect');

let TesseractCore = null;
module.exports = async (_lstmOnly, _corePath, res) => {
  if (TesseractCore === null) {
    res.progress({ status: 'loading tesseract core', progress: 0 });
    TesseractCore = (await relaxedSimd()) ? require('./tesseract-core-relaxedsimd.js') : require('./tesseract-core.js');
    res.progress({ status: 'loading tesseract core', progress: 1 });
  }
  return TesseractCore;
};
