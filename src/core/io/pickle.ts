/**
 * A pickle reader for data, never code: the opcodes Python's pickle protocols 2–4 use for numbers, strings,
 * bytes, lists, tuples and dicts, plus GLOBAL/STACK_GLOBAL, REDUCE, NEWOBJ, BUILD and BINPERSID, which
 * `torch.save` (torch 1.13, protocol 2) emits for tensors and for any pickled object. No callable is ever
 * looked up or run: a global is only its name, and REDUCE/NEWOBJ of a global the caller does not handle gives
 * an opaque `{ $class, args, state }` record. Opcodes outside this subset (INST, OBJ, EXT*, the text-protocol
 * ones, out-of-band buffers) are refused with a sentence naming them. Semantics follow CPython's
 * `Lib/pickle.py` (`_Unpickler`) and `Lib/pickletools.py`.
 *
 * Every opcode counts against LIMITS.pickleOps, so the work, the stack and the memo all stay within it; each
 * string or bytes value is held to LIMITS.tokenChars. Dict keys from the file go into a Map, never an object.
 */
import { LIMITS, LimitError, limitSentence } from '../limits.ts';
import { ParseError } from './types.ts';

/** A global named by the pickle ("module.name"), never resolved. */
export interface PickleGlobal {
  $global: string;
}

/** An instance of a class this reader does not rebuild: what pickle would have called and with what. */
export interface PickleObject {
  $class: string;
  args: PickleValue[];
  /** What BUILD gave it (`__setstate__` or the instance dict), or undefined. */
  state: PickleValue | undefined;
  /** SETITEM(S) on it: a dict subclass's items (torch_geometric's GlobalStorage is one). */
  items?: Map<PickleValue, PickleValue>;
  /** APPEND(S) on it: a list subclass's items. */
  list?: PickleValue[];
}

/** Python values as read: int → number (or bigint past 2^53), tuple and list → array, dict → Map. */
export type PickleValue =
  | null
  | boolean
  | number
  | bigint
  | string
  | Uint8Array
  | PickleValue[]
  | Map<PickleValue, PickleValue>
  | PickleGlobal
  | PickleObject
  | PickleExtension;

/** A value a caller's reducer or persistentLoad builds (torch-pt.ts: storages and tensors), tagged by `$kind`. */
export interface PickleExtension {
  readonly $kind: string;
}

export interface UnpickleOptions {
  /** BINPERSID: the value of a persistent id (torch: storages); without it a persistent id is refused. */
  persistentLoad?: (pid: PickleValue) => PickleValue;
  /** REDUCE of these globals ("module.name") calls the function with the argument tuple; others give a PickleObject. */
  reducers?: ReadonlyMap<string, (args: PickleValue[]) => PickleValue>;
}

export const isGlobal = (v: unknown): v is PickleGlobal => typeof v === 'object' && v !== null && '$global' in v && !Array.isArray(v);

/** Opcode names as pickletools spells them, for refusals (CPython Lib/pickletools.py). */
const REFUSED = new Map<number, string>([
  [0x49, 'INT'],
  [0x4c, 'LONG'],
  [0x46, 'FLOAT'],
  [0x53, 'STRING'],
  [0x56, 'UNICODE'],
  [0x50, 'PERSID'],
  [0x70, 'PUT'],
  [0x67, 'GET'],
  [0x69, 'INST'],
  [0x6f, 'OBJ'],
  [0x82, 'EXT1'],
  [0x83, 'EXT2'],
  [0x84, 'EXT4'],
  [0x8f, 'EMPTY_SET'],
  [0x90, 'ADDITEMS'],
  [0x91, 'FROZENSET'],
  [0x96, 'BYTEARRAY8'],
  [0x97, 'NEXT_BUFFER'],
  [0x98, 'READONLY_BUFFER'],
]);

/**
 * The value a pickle holds. `name` names the file in every message. Throws ParseError (a sentence) for a damaged
 * pickle or a refused opcode, LimitError past LIMITS.pickleOps or LIMITS.tokenChars.
 */
export function unpickle(bytes: Uint8Array, name: string, options: UnpickleOptions = {}): PickleValue {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const stack: PickleValue[] = [];
  // MARK positions: stack lengths (dict keys go into a Map, compared by value for numbers and strings).
  const marks: number[] = [];
  const memo = new Map<number, PickleValue>();
  let at = 0;
  let ops = 0;
  let opAt = 0;
  const fail = (what: string): never => {
    throw new ParseError(`${name} is not a readable pickle (${what} at byte ${opAt})`);
  };
  const need = (n: number): number => {
    if (at + n > bytes.length) fail('the data ends inside an opcode');
    const start = at;
    at += n;
    return start;
  };
  const sizeChecked = (n: number, what: string): number => {
    if (n > LIMITS.tokenChars)
      throw new LimitError('tokenChars', limitSentence(`${name}: a pickled ${what}`, n, LIMITS.tokenChars, 'bytes', 'tokenChars'));
    return n;
  };
  const pop = (): PickleValue => {
    if (stack.length === 0 || (marks.length > 0 && stack.length <= marks[marks.length - 1])) fail('the stack is empty');
    return stack.pop()!;
  };
  const top = (): PickleValue => {
    if (stack.length === 0 || (marks.length > 0 && stack.length <= marks[marks.length - 1])) fail('the stack is empty');
    return stack[stack.length - 1];
  };
  /** Everything above the last MARK, which is removed. */
  const popMark = (): PickleValue[] => {
    if (marks.length === 0) fail('there is no MARK');
    const base = marks.pop()!;
    return stack.splice(base);
  };
  const text = (start: number, n: number): string => {
    try {
      return new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(start, start + n));
    } catch {
      return fail('a string is not UTF-8');
    }
  };
  const latin1 = (start: number, n: number): string => {
    let s = '';
    for (let k = start; k < start + n; k++) s += String.fromCharCode(bytes[k]);
    return s;
  };
  /** A GLOBAL line: up to "\n", at most LIMITS.tokenChars bytes, printable ASCII. */
  const line = (): string => {
    const end = bytes.indexOf(0x0a, at);
    if (end < 0 || end - at > LIMITS.tokenChars) fail('a GLOBAL name has no end');
    const s = latin1(at, end - at);
    if (!/^[\x21-\x7e]+$/.test(s)) fail('a GLOBAL name is not a Python name');
    at = end + 1;
    return s;
  };
  const signedLittle = (start: number, n: number): bigint | number => {
    if (n === 0) return 0;
    let v = 0n;
    for (let k = n - 1; k >= 0; k--) v = (v << 8n) | BigInt(bytes[start + k]);
    if (bytes[start + n - 1] & 0x80) v -= 1n << BigInt(8 * n);
    return v >= BigInt(Number.MIN_SAFE_INTEGER) && v <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(v) : v;
  };
  // Pickle fills an instance of a dict or list subclass with SETITEMS / APPENDS after NEWOBJ (CPython
  // Lib/pickle.py save_reduce's dictitems and listitems); the opaque record keeps them.
  const isOpaque = (v: PickleValue): v is PickleObject => typeof v === 'object' && v !== null && '$class' in v;
  const setItems = (target: PickleValue, items: PickleValue[]): void => {
    const map = target instanceof Map ? target : isOpaque(target) ? (target.items ??= new Map()) : null;
    if (!map) return fail('SETITEM targets something that is not a dict');
    if (items.length % 2 !== 0) fail('SETITEMS has an odd number of items');
    for (let k = 0; k < items.length; k += 2) map.set(items[k], items[k + 1]);
  };
  const appendItems = (target: PickleValue, items: PickleValue[]): void => {
    const list = Array.isArray(target) ? target : isOpaque(target) ? (target.list ??= []) : null;
    if (!list) return fail('APPEND targets something that is not a list');
    for (const v of items) list.push(v);
  };
  const reduce = (callable: PickleValue, args: PickleValue, opcode: string): PickleValue => {
    if (!Array.isArray(args)) return fail(`${opcode} has arguments that are not a tuple`);
    // An instance as the callable: torch_geometric 2.x pickles a Batch as (DynamicInheritanceGetter(), (Batch, Data),
    // state) (pyg-team/pytorch_geometric torch_geometric/data/batch.py, Batch.__reduce__). Opaque, never called.
    if (isOpaque(callable)) return { $class: `${callable.$class}()`, args, state: undefined };
    if (!isGlobal(callable)) return fail(`${opcode} calls something that is not a global or an object`);
    const qualified = callable.$global;
    if (qualified === 'collections.OrderedDict' && args.length === 0) return new Map();
    // Protocol 2 pickles bytes as _codecs.encode(text, 'latin1'): one byte per character, nothing to run.
    if (qualified === '_codecs.encode' && args.length === 2 && typeof args[0] === 'string' && args[1] === 'latin1') {
      const t = args[0];
      if ([...t].every((c) => c.charCodeAt(0) < 256)) return Uint8Array.from(t, (c) => c.charCodeAt(0));
    }
    const known = options.reducers?.get(qualified);
    if (known) return known(args);
    return { $class: qualified, args, state: undefined };
  };

  for (;;) {
    opAt = at;
    if (at >= bytes.length) fail('the data ends before STOP');
    if (++ops > LIMITS.pickleOps)
      throw new LimitError('pickleOps', limitSentence(`The pickle of ${name}`, null, LIMITS.pickleOps, 'opcodes', 'pickleOps'));
    const op = bytes[at++];
    switch (op) {
      case 0x80: // PROTO
        if (bytes[need(1)] > 5) fail(`protocol ${bytes[at - 1]} is unknown`);
        break;
      case 0x95: // FRAME: framing only (protocol 4); the data follows inline.
        need(8);
        break;
      case 0x2e: {
        // STOP
        const v = pop();
        if (stack.length !== 0 || marks.length !== 0) fail('STOP leaves values on the stack');
        return v;
      }
      case 0x28: // MARK
        marks.push(stack.length);
        break;
      case 0x31: // POP_MARK
        popMark();
        break;
      case 0x30: // POP
        pop();
        break;
      case 0x32: // DUP
        stack.push(top());
        break;
      case 0x7d: // EMPTY_DICT
        stack.push(new Map());
        break;
      case 0x5d: // EMPTY_LIST
        stack.push([]);
        break;
      case 0x29: // EMPTY_TUPLE
        stack.push([]);
        break;
      case 0x74: // TUPLE
      case 0x6c: // LIST
        stack.push(popMark());
        break;
      case 0x85: // TUPLE1
        stack.push([pop()]);
        break;
      case 0x86: {
        // TUPLE2
        const b = pop();
        stack.push([pop(), b]);
        break;
      }
      case 0x87: {
        // TUPLE3
        const c = pop();
        const b = pop();
        stack.push([pop(), b, c]);
        break;
      }
      case 0x64: {
        // DICT
        const d = new Map<PickleValue, PickleValue>();
        setItems(d, popMark());
        stack.push(d);
        break;
      }
      case 0x61: {
        // APPEND
        const v = pop();
        appendItems(top(), [v]);
        break;
      }
      case 0x65: {
        // APPENDS
        const items = popMark();
        appendItems(top(), items);
        break;
      }
      case 0x73: {
        // SETITEM
        const v = pop();
        const k = pop();
        setItems(top(), [k, v]);
        break;
      }
      case 0x75: {
        // SETITEMS
        const items = popMark();
        setItems(top(), items);
        break;
      }
      case 0x71: // BINPUT
        memo.set(bytes[need(1)], top());
        break;
      case 0x72: // LONG_BINPUT
        memo.set(view.getUint32(need(4), true), top());
        break;
      case 0x94: // MEMOIZE
        memo.set(memo.size, top());
        break;
      case 0x68: // BINGET
      case 0x6a: {
        // LONG_BINGET
        const key = op === 0x68 ? bytes[need(1)] : view.getUint32(need(4), true);
        if (!memo.has(key)) fail(`memo entry ${key} was never stored`);
        stack.push(memo.get(key)!);
        break;
      }
      case 0x4a: // BININT
        stack.push(view.getInt32(need(4), true));
        break;
      case 0x4b: // BININT1
        stack.push(bytes[need(1)]);
        break;
      case 0x4d: // BININT2
        stack.push(view.getUint16(need(2), true));
        break;
      case 0x8a: // LONG1
      case 0x8b: {
        // LONG4
        const n = op === 0x8a ? bytes[need(1)] : view.getInt32(need(4), true);
        // Past 256 bytes (617 decimal digits) no real integer lies; the conversion would be quadratic.
        if (n < 0 || n > LIMITS.numberChars) fail(`an integer of ${n} bytes`);
        stack.push(signedLittle(need(n), n));
        break;
      }
      case 0x47: // BINFLOAT: big-endian IEEE 754 double
        stack.push(view.getFloat64(need(8), false));
        break;
      case 0x58: // BINUNICODE
      case 0x8c: // SHORT_BINUNICODE
      case 0x8d: {
        // BINUNICODE8
        const n = op === 0x8c ? bytes[need(1)] : op === 0x58 ? view.getUint32(need(4), true) : Number(view.getBigUint64(need(8), true));
        stack.push(text(need(sizeChecked(n, 'string')), n));
        break;
      }
      case 0x54: // BINSTRING (a Python 2 str, read as Latin-1 text)
      case 0x55: {
        // SHORT_BINSTRING
        const n = op === 0x55 ? bytes[need(1)] : view.getInt32(need(4), true);
        if (n < 0) fail('a string has a negative length');
        stack.push(latin1(need(sizeChecked(n, 'string')), n));
        break;
      }
      case 0x42: // BINBYTES
      case 0x43: // SHORT_BINBYTES
      case 0x8e: {
        // BINBYTES8
        const n = op === 0x43 ? bytes[need(1)] : op === 0x42 ? view.getUint32(need(4), true) : Number(view.getBigUint64(need(8), true));
        const start = need(sizeChecked(n, 'bytes value'));
        stack.push(bytes.slice(start, start + n));
        break;
      }
      case 0x4e: // NONE
        stack.push(null);
        break;
      case 0x88: // NEWTRUE
        stack.push(true);
        break;
      case 0x89: // NEWFALSE
        stack.push(false);
        break;
      case 0x63: {
        // GLOBAL
        const module = line();
        stack.push({ $global: `${module}.${line()}` });
        break;
      }
      case 0x93: {
        // STACK_GLOBAL
        const qualname = pop();
        const module = pop();
        if (typeof module !== 'string' || typeof qualname !== 'string') fail('STACK_GLOBAL needs two strings');
        stack.push({ $global: `${module as string}.${qualname as string}` });
        break;
      }
      case 0x52: {
        // REDUCE
        const args = pop();
        stack.push(reduce(pop(), args, 'REDUCE'));
        break;
      }
      case 0x81: {
        // NEWOBJ: cls.__new__(cls, *args), which never runs __init__; an opaque record either way.
        const args = pop();
        const cls = pop();
        if (!isGlobal(cls) || !Array.isArray(args)) fail('NEWOBJ needs a class and a tuple');
        stack.push({ $class: (cls as PickleGlobal).$global, args: args as PickleValue[], state: undefined });
        break;
      }
      case 0x92: {
        // NEWOBJ_EX
        const kwargs = pop();
        const args = pop();
        const cls = pop();
        if (!isGlobal(cls) || !Array.isArray(args) || !(kwargs instanceof Map)) fail('NEWOBJ_EX needs a class, a tuple and a dict');
        stack.push({ $class: (cls as PickleGlobal).$global, args: [...(args as PickleValue[]), kwargs], state: undefined });
        break;
      }
      case 0x62: {
        // BUILD: the state of an opaque object is kept as given; a dict's state updates the dict.
        const state = pop();
        const target = top();
        if (target instanceof Map && state instanceof Map) for (const [k, v] of state) target.set(k, v);
        else if (typeof target === 'object' && target !== null && '$class' in target) (target as PickleObject).state = state;
        else fail('BUILD targets something that is not an object');
        break;
      }
      case 0x51: {
        // BINPERSID
        const pid = pop();
        if (!options.persistentLoad) fail('a persistent id (BINPERSID) appears, which only a PyTorch file may use');
        stack.push(options.persistentLoad!(pid));
        break;
      }
      default: {
        const known = REFUSED.get(op);
        const what = known ? `the opcode ${known}` : `the opcode byte 0x${op.toString(16).padStart(2, '0')}`;
        throw new ParseError(
          `${name} holds a pickle with ${what} at byte ${opAt}, which this reader refuses (it reads data only and runs no code)`,
        );
      }
    }
  }
}
