import { describe, expect, it } from 'vitest';
import { dotProducts } from './dot-products.js';

describe('dotProducts', () => {
  it('gives every row exactly the sum a plain in-order loop gives', () => {
    let state = 3;
    const next = () => {
      state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
      return state / 1_073_741_824 - 1;
    };
    for (const dimensions of [1, 7, 100]) {
      for (let rows = 0; rows <= 19; rows++) {
        const matrix = Float32Array.from({ length: rows * dimensions }, next);
        const vector = Float32Array.from({ length: dimensions }, next);
        const out = new Float64Array(rows + 1).fill(-9);
        dotProducts(matrix, rows, vector, out);
        for (let row = 0; row < rows; row++) {
          let sum = 0;
          for (let d = 0; d < dimensions; d++) {
            sum += (matrix[row * dimensions + d] as number) * (vector[d] as number);
          }
          expect(out[row]).toBe(sum);
        }
        expect(out[rows]).toBe(-9);
      }
    }
  });
});
