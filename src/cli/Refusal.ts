/** A command that was understood but refused (exit code 1); its message quotes typed values only through printable(). */
export class Refusal extends Error {}
