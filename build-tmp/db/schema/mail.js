export {};
//# sourceMappingURL=mail.js.map