import { gramOfColumns, normalizeRows, orthonormalizeColumns, symmetricEigen } from './dense.ts';
import { gaussian, type Random } from './random.ts';
import { multiplyDense, multiplyTransposeDense, type SparseRows, type SparseVector } from './sparse-matrix.ts';

/** Term → topic projection (cols × dims, row-major) learned by truncated SVD. */
export interface Projection {
  dims: number;
  components: Float32Array;
}

/**
 * Latent semantic analysis: truncated SVD by randomized power iteration (Halko et al.
 * 2011), so texts sharing no word but related words still land close together.
 */
export function fitLsa(x: SparseRows, wanted: number, random: Random, powerIterations = 2): Projection {
  const dims = Math.max(1, Math.min(wanted, x.rows - 1, x.cols));
  const l = Math.min(dims + 10, x.cols, x.rows);
  const omega = new Float32Array(x.cols * l);
  for (let i = 0; i < omega.length; i++) omega[i] = gaussian(random);
  let y = multiplyDense(x, omega, l);
  // Intermediate bases only need to stay well conditioned: one Cholesky QR pass each.
  orthonormalizeColumns(y, x.rows, l, 1);
  for (let it = 0; it < powerIterations; it++) {
    const z = multiplyTransposeDense(x, y, l);
    orthonormalizeColumns(z, x.cols, l, 1);
    y = multiplyDense(x, z, l);
    orthonormalizeColumns(y, x.rows, l, it === powerIterations - 1 ? 2 : 1);
  }
  // Bᵀ = Xᵀ Q (cols × l); B Bᵀ is small (l × l): its eigenvectors give B's left singular vectors.
  const bt = multiplyTransposeDense(x, y, l);
  const gram = gramOfColumns(bt, x.cols, l);
  for (let i = 0; i < l; i++) for (let j = 0; j < i; j++) gram[i * l + j] = gram[j * l + i]!;
  const { values, vectors } = symmetricEigen(gram, l);
  // Right singular vectors V = Bᵀ U Σ⁻¹, kept for the top `dims`; X·V is then U Σ.
  const components = new Float32Array(x.cols * dims);
  for (let r = 0; r < x.cols; r++) {
    for (let c = 0; c < dims; c++) {
      const sigma = Math.sqrt(Math.max(values[c]!, 1e-24));
      let s = 0;
      for (let i = 0; i < l; i++) s += bt[r * l + i]! * vectors[i * l + c]!;
      components[r * dims + c] = s / sigma;
    }
  }
  return { dims, components };
}

/** Unit-length topic vectors of all rows. */
export function projectRows(x: SparseRows, p: Projection): Float32Array {
  return normalizeRows(multiplyDense(x, p.components, p.dims), p.dims);
}

export function projectVector(v: SparseVector, p: Projection): Float32Array {
  const out = new Float32Array(p.dims);
  for (let k = 0; k < v.indices.length; k++) {
    const o = v.indices[k]! * p.dims;
    const w = v.values[k]!;
    for (let j = 0; j < p.dims; j++) out[j]! += w * p.components[o + j]!;
  }
  return normalizeRows(out, p.dims);
}
