/**
 * The Worker runtime's extension of SubtleCrypto that src/platform/crypto.ts uses, for the Node
 * and browser test projects that type-check code importing it (test/scripts/signatures-libraries.spec.ts
 * provides it from node:crypto when it runs).
 */
declare global {
  interface SubtleCrypto {
    timingSafeEqual(a: ArrayBuffer | ArrayBufferView, b: ArrayBuffer | ArrayBufferView): boolean;
  }
}

export {};
