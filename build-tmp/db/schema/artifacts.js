export {};
//# sourceMappingURL=artifacts.js.map