package org.jptxas.cubin;

/** {@code sh_type} values used in cubins; names for display come from {@code cubin/section-types.json}. */
public final class SectionType {
    private SectionType() {}

    public static final int NULL = 0;
    public static final int PROGBITS = 1;
    public static final int SYMTAB = 2;
    public static final int STRTAB = 3;
    public static final int RELA = 4;
    public static final int NOTE = 7;
    public static final int NOBITS = 8;
    public static final int REL = 9;
    public static final int CUDA_INFO = 0x70000000;
    public static final int CUDA_CALLGRAPH = 0x70000001;
    public static final int CUDA_PROTOTYPE = 0x70000002;
    public static final int CUDA_RESOLVED_RELA = 0x70000003;
    public static final int CUDA_GLOBAL = 0x70000007;
    public static final int CUDA_GLOBAL_INIT = 0x70000008;
    public static final int CUDA_LOCAL = 0x70000009;
    public static final int CUDA_SHARED = 0x7000000a;
    public static final int CUDA_RELOCINFO = 0x7000000b;
    public static final int CUDA_RESERVED_SHARED = 0x70000015;
    public static final int CUDA_CAPMERC = 0x70000016;
    /** {@code .nv.constant0} in relocatable output; banks 1..17 follow. */
    public static final int CUDA_CONSTANT_B0 = 0x70000064;
    public static final int CUDA_MERC_RELA = 0x70000082;
    public static final int CUDA_MERC_INFO = 0x70000083;
    public static final int CUDA_MERC_SYMTAB = 0x70000085;
    public static final int CUDA_COMPAT = 0x70000086;

    /**
     * Whether sections of this type hold bytes in the file. NOBITS does not, nor do the CUDA types for uninitialised
     * memory that relocatable output uses instead of NOBITS: {@code .nv.global}, {@code .nv.local.*},
     * {@code .nv.shared.*} and the reserved-shared sections.
     */
    public static boolean occupiesFile(int type) {
        return type != NULL && type != NOBITS && type != CUDA_GLOBAL && type != CUDA_LOCAL && type != CUDA_SHARED
                && type != CUDA_RESERVED_SHARED;
    }
}
