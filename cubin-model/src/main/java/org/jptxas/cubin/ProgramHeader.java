package org.jptxas.cubin;

/**
 * One program header, as stored. Offsets point into the file; {@link CubinBuilder} computes them from the layout,
 * the reader keeps them as read.
 */
public record ProgramHeader(int type, int flags, long offset, long vaddr, long paddr, long filesz, long memsz, long align) {
    public static final int PT_LOAD = 1;
    public static final int PT_PHDR = 6;
    public static final int PF_X = 1;
    public static final int PF_W = 2;
    public static final int PF_R = 4;
}
