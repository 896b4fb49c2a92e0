export {};
//# sourceMappingURL=signing.js.map