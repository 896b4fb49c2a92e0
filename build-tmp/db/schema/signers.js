export {};
//# sourceMappingURL=signers.js.map