export {};
//# sourceMappingURL=api-keys.js.map