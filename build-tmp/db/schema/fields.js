export {};
//# sourceMappingURL=fields.js.map