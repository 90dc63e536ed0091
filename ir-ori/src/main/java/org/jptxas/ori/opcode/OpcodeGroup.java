package org.jptxas.ori.opcode;

/** Functional group of an Ori opcode, used by passes that treat whole families alike. */
public enum OpcodeGroup {
    INTEGER, FLOAT32, FLOAT64, HALF, CONVERSION, MOVE, SPECIAL_FUNCTION, PREDICATE, MEMORY, ATOMIC, TEXTURE, SURFACE,
    CONTROL, SYNC, WARP, TENSOR, GRAPHICS, MISC, PSEUDO,
    /** SM-generation boundary markers; valid runtime opcodes that delimit the opcode ranges of each generation. */
    MARKER
}
