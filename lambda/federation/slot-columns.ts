/**
 * Append-only per-slot storage for the final merge's store. Values live in fixed-size blocks, so a run of
 * 10^5 records never grows one large array: growing a JS array past ~16k elements reallocates it in the large
 * object space and copies it, again and again, and each new allocation faults in fresh pages.
 */

/** log2 of the slots per block. */
const BLOCK_BITS = 12;
const BLOCK = 1 << BLOCK_BITS;
const IN_BLOCK = BLOCK - 1;

/** One value per slot. */
export class SlotColumn<T> {
  readonly #blocks: T[][] = [];
  #length = 0;

  get length(): number {
    return this.#length;
  }

  push(value: T): void {
    const at = this.#length & IN_BLOCK;
    if (at === 0) this.#blocks.push(new Array<T>(BLOCK));
    this.#blocks[this.#length >>> BLOCK_BITS]![at] = value;
    this.#length++;
  }

  at(slot: number): T {
    return this.#blocks[slot >>> BLOCK_BITS]![slot & IN_BLOCK] as T;
  }
}

type NumberArray = Int32Array | Float64Array;

/** `width` numbers per slot, in typed-array blocks (unboxed, and never traced by the garbage collector). */
export class SlotNumbers {
  readonly #blocks: NumberArray[] = [];
  readonly #make: new (length: number) => NumberArray;
  readonly #width: number;
  #length = 0;

  constructor(make: new (length: number) => NumberArray, width: number) {
    this.#make = make;
    this.#width = width;
  }

  #room(): NumberArray {
    const at = this.#length & IN_BLOCK;
    if (at === 0) this.#blocks.push(new this.#make(BLOCK * this.#width));
    return this.#blocks[this.#length >>> BLOCK_BITS]!;
  }

  /** Appends a slot of width 1. */
  push(value: number): void {
    this.#room()[this.#length & IN_BLOCK] = value;
    this.#length++;
  }

  /** Appends a slot of width 4. */
  push4(a: number, b: number, c: number, d: number): void {
    const block = this.#room();
    const at = (this.#length & IN_BLOCK) * 4;
    block[at] = a;
    block[at + 1] = b;
    block[at + 2] = c;
    block[at + 3] = d;
    this.#length++;
  }

  /** The `index`-th number of `slot`. */
  at(slot: number, index: number): number {
    return this.#blocks[slot >>> BLOCK_BITS]![(slot & IN_BLOCK) * this.#width + index]!;
  }
}
