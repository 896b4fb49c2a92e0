export {};
//# sourceMappingURL=webhooks.js.map