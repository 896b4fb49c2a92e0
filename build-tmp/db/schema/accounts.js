export {};
//# sourceMappingURL=accounts.js.map