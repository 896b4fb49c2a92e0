export {};
//# sourceMappingURL=signature-requests.js.map