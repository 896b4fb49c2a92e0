export {};
//# sourceMappingURL=index.js.map