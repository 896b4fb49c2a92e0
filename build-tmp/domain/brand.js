export function brandNames(word) {
    return Object.freeze({
        word,
        apiKeyPrefix: `${word}_test_`,
        evidenceSchemaVersion: `${word}.evidence/1.2`,
        iframeSource: word,
        returnStatusParam: `${word}_status`,
    });
}
//# sourceMappingURL=brand.js.map