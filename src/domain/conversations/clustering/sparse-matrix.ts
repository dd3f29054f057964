/** Rows of a sparse matrix in compressed-row form (CSR): row r spans offsets[r]..offsets[r+1]. */
export interface SparseRows {
  rows: number;
  cols: number;
  offsets: Int32Array;
  indices: Int32Array;
  values: Float32Array;
}

export interface SparseVector {
  indices: Int32Array;
  values: Float32Array;
}

export function rowOf(m: SparseRows, r: number): SparseVector {
  return { indices: m.indices.subarray(m.offsets[r]!, m.offsets[r + 1]!), values: m.values.subarray(m.offsets[r]!, m.offsets[r + 1]!) };
}

/** out (rows × k) = M (rows × cols) · D (cols × k), D dense row-major. */
export function multiplyDense(m: SparseRows, d: Float32Array, k: number): Float32Array {
  const out = new Float32Array(m.rows * k);
  for (let r = 0; r < m.rows; r++) {
    const o = r * k;
    const end = m.offsets[r + 1]!;
    let p = m.offsets[r]!;
    // Two terms per pass over the output row: half its loads and stores. fround keeps the
    // float32 rounding after each term that one term per pass had, so results are unchanged.
    for (; p + 1 < end; p += 2) {
      const v0 = m.values[p]!;
      const v1 = m.values[p + 1]!;
      const c0 = m.indices[p]! * k;
      const c1 = m.indices[p + 1]! * k;
      for (let j = 0; j < k; j++) out[o + j] = Math.fround(out[o + j]! + v0 * d[c0 + j]!) + v1 * d[c1 + j]!;
    }
    if (p < end) {
      const v = m.values[p]!;
      const c = m.indices[p]! * k;
      for (let j = 0; j < k; j++) out[o + j]! += v * d[c + j]!;
    }
  }
  return out;
}

/** out (cols × k) = Mᵀ · D, D dense (rows × k) row-major. */
export function multiplyTransposeDense(m: SparseRows, d: Float32Array, k: number): Float32Array {
  const out = new Float32Array(m.cols * k);
  for (let r = 0; r < m.rows; r++) {
    const o = r * k;
    for (let p = m.offsets[r]!; p < m.offsets[r + 1]!; p++) {
      const v = m.values[p]!;
      const c = m.indices[p]! * k;
      for (let j = 0; j < k; j++) out[c + j]! += v * d[o + j]!;
    }
  }
  return out;
}

/** The given rows (ascending) of a matrix, as a matrix of their own. */
export function selectRows(m: SparseRows, rows: ArrayLike<number>): SparseRows {
  const offsets = new Int32Array(rows.length + 1);
  for (let i = 0; i < rows.length; i++) offsets[i + 1] = offsets[i]! + m.offsets[rows[i]! + 1]! - m.offsets[rows[i]!]!;
  const indices = new Int32Array(offsets[rows.length]!);
  const values = new Float32Array(offsets[rows.length]!);
  for (let i = 0; i < rows.length; i++) {
    const from = m.offsets[rows[i]!]!;
    const to = m.offsets[rows[i]! + 1]!;
    indices.set(m.indices.subarray(from, to), offsets[i]!);
    values.set(m.values.subarray(from, to), offsets[i]!);
  }
  return { rows: rows.length, cols: m.cols, offsets, indices, values };
}
