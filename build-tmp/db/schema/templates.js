export {};
//# sourceMappingURL=templates.js.map