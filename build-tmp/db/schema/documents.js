export {};
//# sourceMappingURL=documents.js.map