package org.jptxas.cubin;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jptxas.cubin.info.FunctionInfo;

/**
 * Builds a new cubin from compiled functions the way ptxas 13 lays it out: ELF header (OS/ABI 0x41, ABI version 8,
 * e_flags of the target), string and symbol tables, the toolkit and CUDA notes, the global and per-function .nv.info
 * ({@link FunctionInfo}), .nv.compat on sm_90+, the call graph, constant bank 0 with the parameter block at the
 * target's parameter base, code and shared-memory sections, and program headers for executables.
 *
 * <pre>{@code
 * Cubin cubin = new CubinBuilder(90, false).add(facts).build();
 * }</pre>
 * Also written: {@code .debug_frame} ({@link DebugFrame}) with its relocations, functions placed inside others'
 * code ({@link FunctionFacts#inner()}: symbols, FRAME_SIZE, FDEs, the empty {@code .rela.text} of resolved calls
 * on sm_90+), device functions of relocatable output ({@link #functionBinding}, {@link #prototype} for
 * {@code .nv.prototype}), {@code .nv.shared.reserved.0} on sm_90+, shared-memory alignment and dynamic shared
 * memory ({@link #sharedAlignment}), module facts ({@link #hiddenEntry}, {@link #ptxTarget},
 * {@link #texmodeIndependent}), constant banks 3 and 4, global variables and code relocations. Checked by
 * {@code BuilderCompletenessTest}: rebuilt from ptxas's code and facts, 955 of the 959 covered corpus cubins equal
 * ptxas's in every compared aspect. Line tables ({@link #lineTables}): {@code .debug_line}, {@code .nv_debug_line_sass}
 * and {@code .nv_debug_ptx_txt} with their relocations ({@link DebugLine}); the PTX's own DWARF ({@link #dwarf});
 * ptxas's {@code -g} register maps ({@link #registerMaps}). Not written: on sm_100+, the capsule-Mercury sections.
 * <p>This class holds what the caller declares; {@link #build()} plans the sections ({@link SectionPlan}) and the
 * symbols ({@link SymbolPlan}), then has {@link ModuleSections}, {@link FunctionSections}, {@link DebugSections} and
 * {@link RelocationSections} write their contents.
 */
public final class CubinBuilder {
    final int sm;
    final CubinFlavor flavor;
    final boolean relocatable;
    final List<FunctionFacts> functions = new ArrayList<>();
    String options = "";
    int abiVersion = 8;
    boolean withoutAbi;
    final List<GlobalVariable> globals = new ArrayList<>();
    final List<CodeRelocation> relocations = new ArrayList<>();

    /** A variable in global memory: {@code .nv.global} when {@code init} is null, else {@code .nv.global.init}. */
    public record GlobalVariable(String name, long size, int alignment, byte[] init, boolean visible) {}

    /** A {@code .const} variable of constant bank 3: its offset in the bank, size and linkage. */
    public record ConstantVariable(String name, long offset, long size, boolean visible) {}

    byte[] bank3;
    final List<ConstantVariable> constantVariables = new ArrayList<>();

    /**
     * A kernel's slot for a bound texture reference's header index: a word of its constant bank 0 after the
     * parameters ({@code offset} from the bank's start), which the driver fills through an R_CUDA_TEX_HEADER_INDEX
     * relocation against the reference's symbol; the code reads the slot as the texture's handle.
     */
    public record TextureSlot(String function, int offset, String reference) {}

    final List<String> textureReferences = new ArrayList<>();
    final List<TextureSlot> textureSlots = new ArrayList<>();

    /**
     * A module's {@code .global .texref}: a global symbol of type STT_CUDA_TEXTURE without a section, in declaration
     * order after the other global symbols (ptxas writes one for every declared reference, used or not).
     */
    public CubinBuilder textureReference(String name) {
        textureReferences.add(name);
        return this;
    }

    /** A texture header slot of a kernel ({@link TextureSlot}). */
    public CubinBuilder textureSlot(TextureSlot slot) {
        textureSlots.add(slot);
        return this;
    }

    /** The texture header slots of {@code function}, in slot order. */
    List<TextureSlot> textureSlots(String function) {
        return textureSlots.stream().filter(s -> s.function().equals(function))
                .sorted(java.util.Comparator.comparingInt(TextureSlot::offset)).toList();
    }

    /** The name of {@code function}'s constant-bank-0 relocation section (REL below sm_90, RELA from sm_90 on). */
    String textureSlotSection(String function) {
        return (flavor.hopperLayout() && !v7() ? ".rela" : ".rel") + ".nv.constant0." + function;
    }

    /**
     * The module's {@code .const} data, {@code .nv.constant3} (code reads it as {@code c[0x3][offset]}), and the
     * variables in it.
     */
    public CubinBuilder constantBank3(byte[] data, List<ConstantVariable> variables) {
        this.bank3 = data.clone();
        constantVariables.addAll(variables);
        return this;
    }

    /** Kernels' constant bank 2 (their jump tables), by kernel name. */
    final Map<String, byte[]> constantBank2 = new java.util.HashMap<>();

    /**
     * {@code function}'s constant bank 2, {@code .nv.constant2.<function>}: the jump tables its BRXs load their
     * function-relative targets from ({@code c[0x2][offset]}); nothing for empty data.
     */
    public CubinBuilder constantBank2(String function, byte[] data) {
        if (data.length > 0) {
            constantBank2.put(function, data.clone());
        }
        return this;
    }

    /** Whether {@code function} has a constant bank 2. */
    boolean hasConstantBank2(String function) {
        return constantBank2.containsKey(function);
    }

    /** One 8-byte slot of constant bank 4: the address of {@code symbol} plus {@code addend} (relocated R_CUDA_64). */
    public record BankAddress(String symbol, long addend) {}

    final List<BankAddress> addressTable = new ArrayList<>();

    /**
     * The addresses code reads from constant bank 4 ({@code .nv.constant4}, slot {@code i} at {@code c[0x4][8*i]}),
     * as ptxas gives kernels the addresses of module variables; each slot is relocated ({@code .rel(a).nv.constant4}).
     */
    public CubinBuilder addressTable(List<BankAddress> slots) {
        addressTable.addAll(slots);
        return this;
    }

    /**
     * An address in a module variable's initial data: the 8 bytes at {@code offset} of variable {@code holder} (in
     * {@code .nv.constant3} when {@code constant}, else in {@code .nv.global.init}) receive the address of
     * {@code symbol} plus {@code addend}, through an R_CUDA_G64 relocation.
     */
    public record DataAddress(String holder, boolean constant, long offset, String symbol, long addend) {}

    final List<DataAddress> dataAddresses = new ArrayList<>();

    /** Asks for a {@link DataAddress}; called in declaration order of the holders and their elements. */
    public CubinBuilder dataAddress(DataAddress address) {
        dataAddresses.add(address);
        return this;
    }

    boolean addressTableRela() {
        return flavor.hopperLayout() && !v7() || addressTable.stream().anyMatch(a -> a.addend() != 0);
    }

    /** A relocation of a function's code against a function or global variable, by name. */
    public record CodeRelocation(String function, long offset, String type, String symbol, long addend) {}

    /** Declares a global variable (module scope). */
    public CubinBuilder global(GlobalVariable variable) {
        globals.add(variable);
        return this;
    }

    /**
     * Asks for a relocation in {@code .rel[a].text.<function>}: e.g. {@code R_CUDA_ABS47_34} for a call,
     * {@code R_CUDA_ABS32_LO_32}/{@code HI_32} for a global's address. From sm_90 on ptxas writes every code
     * relocation with an addend (RELA); below, only those whose addend is not zero.
     */
    public CubinBuilder relocation(CodeRelocation relocation) {
        relocations.add(relocation);
        return this;
    }

    /** The 16 bytes of {@code .nv.rel.action} that ptxas 13 writes on sm_75 … sm_89 (the same in every cubin). */
    static final byte[] REL_ACTION = java.util.HexFormat.of().parseHex("73000000000000000000001125000536");

    /**
     * A cubin for SM {@code sm} laid out as {@code flavor} says.
     *
     * @param relocatable {@code -c} output (ET_REL, CUDA section types) rather than an executable
     */
    public CubinBuilder(int sm, CubinFlavor flavor, boolean relocatable) {
        this.sm = sm;
        this.flavor = java.util.Objects.requireNonNull(flavor, "flavor");
        this.relocatable = relocatable;
        this.ptxTarget = sm;
    }

    /** A cubin for SM {@code sm} in the flavour ptxas 13 writes for it ({@link CubinFlavors#forSm}). */
    public CubinBuilder(int sm, boolean relocatable) {
        this(sm, CubinFlavors.forSm(sm), relocatable);
    }

    public CubinBuilder add(FunctionFacts function) {
        functions.add(function);
        return this;
    }

    final Map<String, Integer> sharedAlignment = new HashMap<>();

    /**
     * The alignment of {@code .nv.shared.<function>}: the largest of its shared variables' (4 unless set). A
     * function given an alignment but no shared bytes uses only dynamic shared memory ({@code .extern .shared}):
     * ptxas still writes its section, empty and without a section symbol.
     */
    public CubinBuilder sharedAlignment(String function, int alignment) {
        sharedAlignment.put(function, alignment);
        return this;
    }

    boolean hasShared(FunctionFacts f) {
        return f.sharedBytes() > 0 || sharedAlignment.containsKey(f.name());
    }

    final Map<String, FunctionFacts.Binding> deviceBindings = new HashMap<>();
    final Map<String, String> prototypes = new java.util.LinkedHashMap<>();

    /**
     * The binding of device function {@code function}'s symbol (relocatable output): global for a
     * {@code .visible .func}, weak for ptxas's internal helpers ({@code __cuda_sm70_...}); local unless set.
     */
    public CubinBuilder functionBinding(String function, FunctionFacts.Binding binding) {
        deviceBindings.put(function, binding);
        return this;
    }

    FunctionFacts.Binding binding(FunctionFacts f) {
        return deviceBindings.getOrDefault(f.name(), FunctionFacts.Binding.LOCAL);
    }

    /**
     * Records {@code function}'s prototype in {@code .nv.prototype} as ptxas does for device functions of relocatable
     * output: {@code signature} is ptxas's type string, e.g. {@code "#ili"} for a .b32 result and (.b64, .b32)
     * parameters, {@code "#vll"} for no result and two .b64 parameters.
     */
    public CubinBuilder prototype(String function, String signature) {
        prototypes.put(function, signature);
        return this;
    }

    final List<String> externFunctions = new ArrayList<>();

    /**
     * Declares {@code function} as defined in another object (relocatable output; {@code .extern .func}). The
     * undefined symbols of the functions the code calls come in the order of these declarations (any other after).
     */
    public CubinBuilder externFunction(String function) {
        if (!externFunctions.contains(function)) {
            externFunctions.add(function);
        }
        return this;
    }

    /**
     * ptxas's {@code .nv.prototype} type string for a function: {@code #}, the result's code ({@code v} without
     * one), then the parameters' codes: {@code i}/{@code l} for 32/64-bit integer or bit scalars, {@code f}/{@code d}
     * for f32/f64, {@code b<bytes>} for byte arrays and anything else. ptxas 13 (not CUDA 12) appends an ABI
     * descriptor to system calls ({@code vprintf}, {@code malloc}, ...) from sm_80 on: pass {@code systemCall}.
     *
     * @param results, params each element a PTX type name ({@code "b32"}, {@code "f64"}, {@code "b8"}) and its
     *                         byte size as {@code type:size}
     */
    public String prototypeSignature(List<String> results, List<String> params, boolean systemCall) {
        StringBuilder sb = new StringBuilder("#");
        if (results.isEmpty()) {
            sb.append('v');
        }
        for (String r : results) {
            sb.append(prototypeCode(r));
        }
        for (String p : params) {
            sb.append(prototypeCode(p));
        }
        if (systemCall && flavor.systemCallAbi() && !v7()) {
            sb.append(SYSTEM_CALL_ABI);
        }
        return sb.toString();
    }

    /** What ptxas 13 appends to a system call's prototype from sm_80 on. */
    static final String SYSTEM_CALL_ABI = "|12p4r20sRx" + "0".repeat(60) + "fff9";

    private static String prototypeCode(String typeAndSize) {
        int colon = typeAndSize.lastIndexOf(':');
        String type = typeAndSize.substring(0, colon);
        int size = Integer.parseInt(typeAndSize.substring(colon + 1));
        String bits = type.replaceAll("^[a-z]+", "");
        boolean scalar = !type.contains(".") && bits.matches("[0-9]+") && Integer.parseInt(bits) == 8 * size;
        if (scalar && type.startsWith("f")) {
            return size == 4 ? "f" : size == 8 ? "d" : "b" + size;
        }
        if (scalar && (size == 4 || size == 8)) {
            return size == 4 ? "i" : "l";
        }
        return "b" + size;
    }

    /**
     * The line tables of {@code -lineinfo} (ptxas also writes them for PTX with {@code .loc}).
     *
     * @param files       the {@code .file} table of {@code .debug_line}
     * @param sourceLines per function, its code's source lines ({@code .debug_line})
     * @param ptxLines    per function, its code's lines of {@code ptxText} ({@code .nv_debug_line_sass})
     * @param ptxText     the PTX as ptxas embeds it ({@code .nv_debug_ptx_txt})
     * @param checksum    relocatable output names the PTX text's section {@code .nv_debug_ptx_txt.<checksum>}
     */
    public record LineTables(List<DebugLine.File> files, List<DebugLine.Sequence> sourceLines,
                             List<DebugLine.Sequence> ptxLines, byte[] ptxText, long checksum) {
        public LineTables {
            files = List.copyOf(files);
            sourceLines = List.copyOf(sourceLines);
            ptxLines = List.copyOf(ptxLines);
            ptxText = ptxText.clone();
        }
    }

    LineTables lineTables;
    /** {@code -g}: the cubin carries full debug information (its e_flags say so). */
    private boolean deviceDebug;

    /** Marks the cubin as compiled with {@code -g} (ptxas's e_flags top byte 0x0b). */
    public CubinBuilder deviceDebug(boolean on) {
        this.deviceDebug = on;
        return this;
    }

    /** Writes the line tables {@code tables}: {@code .debug_line}, {@code .nv_debug_line_sass}, {@code .nv_debug_ptx_txt}. */
    public CubinBuilder lineTables(LineTables tables) {
        this.lineTables = tables;
        return this;
    }

    /**
     * A DWARF section the PTX carries, copied into a {@code -g} cubin as ptxas 13 does ({@code .debug_abbrev},
     * {@code .debug_info}, {@code .debug_pubnames}, {@code .debug_macinfo}), with the code addresses in it
     * ({@code .rela.<name>}).
     */
    public record DwarfSection(String name, byte[] data, List<DwarfRelocation> relocations) {
        public DwarfSection {
            data = data.clone();
            relocations = List.copyOf(relocations);
        }
    }

    /**
     * A relocated word at {@code offset} of a DWARF section: {@code symbol}'s address (a function's, or a debug
     * section's in relocatable output) plus {@code addend}; {@code type} R_CUDA_64 or R_CUDA_32.
     */
    public record DwarfRelocation(long offset, String symbol, String type, long addend) {}

    final List<DwarfSection> dwarf = new ArrayList<>();

    /** Writes the PTX's DWARF sections {@code sections} after the line tables (with line tables only). */
    public CubinBuilder dwarf(List<DwarfSection> sections) {
        dwarf.addAll(sections);
        return this;
    }

    final List<RegisterMaps.Function> registerMaps = new ArrayList<>();

    /**
     * ptxas's {@code -g} register maps of {@code functions} ({@code .nv_debug_info_reg_sass} and
     * {@code .nv_debug_info_reg_type}, after the PTX text), written with device debug information and line tables.
     */
    public CubinBuilder registerMaps(List<RegisterMaps.Function> functions) {
        registerMaps.addAll(functions);
        return this;
    }

    /** Whether the register maps are written: {@code -g} with line tables and at least one function mapped. */
    boolean writesRegisterMaps() {
        return deviceDebug && lineTables != null && !registerMaps.isEmpty();
    }

    /** The DWARF sections written: with line tables only, as ptxas writes them only with -g. */
    List<DwarfSection> dwarfSections() {
        return lineTables == null ? List.of() : dwarf;
    }

    /** The name of the PTX text's section: relocatable output adds the PTX's checksum. */
    String ptxTextSection() {
        return relocatable ? ".nv_debug_ptx_txt." + lineTables.checksum() : ".nv_debug_ptx_txt";
    }

    /** Line-table relocations carry addends from sm_90 on (unlike .debug_frame's, also in -c below sm_90: REL). */
    boolean debugLineRela() {
        return flavor.hopperLayout() && !v7();
    }

    boolean texmodeIndependent;
    int externSharedAlignment;

    /**
     * The module declares {@code .extern .shared} variables, the largest aligned to {@code alignment}: an executable
     * without kernels, where no kernel's shared window holds them, records them in an empty {@code .nv_debug.shared}
     * as ptxas 13 does.
     */
    public CubinBuilder externShared(int alignment) {
        this.externSharedAlignment = Math.max(externSharedAlignment, alignment);
        return this;
    }

    /** The section of dynamic shared memory no kernel holds (see {@link #externShared}). */
    static final String DEBUG_SHARED = ".nv_debug.shared";

    final List<ExternSharedVariable> externSharedVariables = new ArrayList<>();

    /** An {@code .extern .shared} variable that -g names in {@code .nv_debug.shared}, and the kernels using it. */
    public record ExternSharedVariable(String name, int alignment, List<String> kernels) {
        public ExternSharedVariable {
            kernels = List.copyOf(kernels);
        }
    }

    /**
     * Records {@code .extern .shared} variable {@code name} whose shared window the given kernels hold; with device
     * debug information ptxas 13 gives it a symbol.
     */
    public CubinBuilder externSharedVariable(String name, int alignment, List<String> kernels) {
        externShared(alignment);
        externSharedVariables.add(new ExternSharedVariable(name, alignment, kernels));
        return this;
    }

    boolean writesDebugShared() {
        return externSharedAlignment > 0 && !relocatable
                && (deviceDebug || functions.stream().noneMatch(FunctionFacts::entry));
    }

    /** With -g, ptxas 13 names the module's {@code .extern .shared} variables in {@code .nv_debug.shared}. */
    boolean namesDebugShared() {
        return writesDebugShared() && deviceDebug;
    }

    /**
     * Where -g places an extern shared variable: after the reserved window and the static shared windows of the
     * kernels using it, aligned to the variable (one address for every kernel, as ptxas 13 records it).
     */
    long debugSharedValue(ExternSharedVariable v) {
        long top = flavor.reservedShared();
        for (FunctionFacts f : functions) {
            if (f.entry() && v.kernels().contains(f.name())) {
                top = Math.max(top, f.sharedBytes());
            }
        }
        long align = Math.max(1, v.alignment());
        return (top + align - 1) / align * align;
    }

    /**
     * {@code .nv.shared.reserved.0} and its alias symbol: sm_90+ executables, except with device debug information
     * (ptxas 13 -g leaves both out, keeping only {@code .nv.reservedSmem.offset0}).
     */
    boolean writesReservedSharedSection() {
        return reservesShared() && !relocatable && !deviceDebug;
    }

    /** The module declares {@code .target ..., texmode_independent}: ptxas records TEXMODE_INDEPENDENT. */
    public CubinBuilder texmodeIndependent() {
        this.texmodeIndependent = true;
        return this;
    }

    int ptxTarget;
    final java.util.Set<String> hiddenEntries = new java.util.HashSet<>();

    /** Marks kernel {@code function} as declared without {@code .visible}: ptxas gives it a local symbol. */
    public CubinBuilder hiddenEntry(String function) {
        hiddenEntries.add(function);
        return this;
    }

    /**
     * The SM of the PTX module's {@code .target} (e.g. 52 for {@code .target sm_52}), which ptxas records as the
     * virtual SM of {@code .note.nv.cuinfo}; the target SM unless set.
     */
    public CubinBuilder ptxTarget(int virtualSm) {
        this.ptxTarget = virtualSm;
        return this;
    }

    /** The option string recorded in {@code .note.nv.tkinfo} (ptxas writes e.g. "-arch sm_90 "). */
    public CubinBuilder options(String recordedOptions) {
        this.options = recordedOptions;
        return this;
    }

    /**
     * Writes the CUDA 12 object format instead of ptxas 13's: OS/ABI 0x33, ABI version 7, {@code e_version} and
     * CUDA_API_VERSION 125, ABI v7 {@code e_flags}, no notes and no .nv.compat, register count and barrier count in the
     * code section header. CUDA 12 tools (nvlink 12.5) only link this form.
     */
    public CubinBuilder abiVersion7() {
        this.abiVersion = 7;
        return this;
    }

    /**
     * Marks code compiled without the calling ABI (ptxas disables it for PTX functions with several return values):
     * ptxas 13 then writes EI_ABIVERSION 2 below sm_90.
     */
    public CubinBuilder withoutAbi() {
        this.withoutAbi = true;
        return this;
    }

    boolean v7() {
        return abiVersion == 7;
    }

    int apiVersion() {
        return v7() ? 125 : FunctionInfo.CUDA_API_VERSION_13_0;
    }

    /** Offset of the kernel parameters in constant bank 0. */
    int paramBase() {
        return flavor.parameterBase();
    }

    public Cubin build() {
        SectionPlan plan = SectionPlan.of(this);
        StringTable.Builder shstr = new StringTable.Builder();
        plan.names().forEach(shstr::add);
        StringTable.Builder str = new StringTable.Builder();
        SymbolPlan symbols = new SymbolPlan(this, plan, str);
        SectionContext context = new SectionContext(this, plan, symbols, new DebugSections(this));
        List<Section> sections = new ArrayList<>();
        for (String n : plan.names()) {
            sections.add(section(context, n, shstr.add(n)));
        }
        // String tables last: every name is in them by now.
        sections.set(1, sections.get(1).withData(shstr.toByteArray()));
        sections.set(2, sections.get(2).withData(str.toByteArray()));
        List<LayoutPlanner.Segment> segments = relocatable ? List.of() : LayoutPlanner.segments(flavor, sections);
        Layout layout = LayoutPlanner.plan(flavor, sections, relocatable ? 0 : segments.size() + 2);
        List<ProgramHeader> phdrs = relocatable ? List.of() : LayoutPlanner.programHeaders(flavor, sections, layout, segments);
        ElfHeader header = v7()
                ? new ElfHeader(ElfHeader.OSABI_CUDA_V7, 7, 0, relocatable ? ElfHeader.ET_REL : ElfHeader.ET_EXEC,
                        ElfHeader.EM_CUDA, 125, 0, ElfFlags.v7(sm, false), 64, 56, 64, 1)
                : new ElfHeader(ElfHeader.OSABI_CUDA_V8, withoutAbi && !flavor.hopperLayout() ? 2 : 8, 0, relocatable ? ElfHeader.ET_REL : ElfHeader.ET_EXEC,
                        ElfHeader.EM_CUDA, 1, 0, ElfFlags.v8(sm, flavor.elfFlagsArch(),
                        deviceDebug ? ElfFlags.Debug.FULL : lineTables != null ? ElfFlags.Debug.LINES : ElfFlags.Debug.NONE), 64, relocatable ? 0 : 56, 64, 1);
        return new Cubin(header, sections, phdrs, layout);
    }

    /** Section {@code n}, whose name is at {@code name} in .shstrtab; string tables get their bytes later. */
    private static Section section(SectionContext c, String n, int name) {
        switch (n) {
            case "" -> {
                return new Section("", 0, SectionType.NULL, 0, 0, 0, 0, 0, 0, 0, null);
            }
            case ".shstrtab", ".strtab" -> {
                return new Section(n, name, SectionType.STRTAB, 0, 0, 0, 0, 0, 1, 0, null);
            }
            case ".symtab" -> {
                byte[] b = SymbolTable.encode(c.symbols().symbols);
                return new Section(n, name, SectionType.SYMTAB, 0, 0, b.length, c.section(".strtab"),
                        c.symbols().firstGlobal, 8, SymbolTable.ENTRY_SIZE, b);
            }
            default -> { }
        }
        Section s = ModuleSections.section(c, n, name);
        if (s == null) {
            s = c.debug().section(n, name);
        }
        if (s == null) {
            s = RelocationSections.section(c, n, name);
        }
        return s != null ? s : FunctionSections.section(c, n, name);
    }

    static final int TEXMODE_INDEPENDENT = 0x4d;
    static final int EXTERNS = 0x0f;
    static final int GLOBAL_MIN_STACK_SIZE = 0x12;

    /** {@code st_other} of {@code _param}: the constant storage class with bit 0 set, as ptxas writes it. */
    static final int PARAM_SYMBOL_OTHER = 0x81;

    /** The shared-memory window ptxas 13 reserves from sm_90 on (executables get a section for it). */
    static final String RESERVED_SHARED = ".nv.shared.reserved.0";

    static final List<String> UNIFIED_TABLE_SYMBOLS = List.of("__UDT_OFFSET", "__UFT_OFFSET", "__UFT_CANONICAL",
            "__UDT_CANONICAL", "__UFT", "__UDT", "__UFT_END", "__UDT_END");

    boolean reservesShared() {
        return flavor.hopperLayout() && !v7();
    }

    /** Bytes of {@code .nv.shared.reserved.0}: 0 on sm_90, 0x40 from sm_100 on. */
    long reservedSharedBytes() {
        return flavor.reservedSharedSection();
    }

    /** {@code .debug_frame}'s relocations carry addends in relocatable output and from sm_90 on. */
    boolean debugFrameRela() {
        return relocatable || flavor.hopperLayout() && !v7();
    }

    /** The offset of {@code f}'s first relocation of the kind (with or without addend); MAX_VALUE if none. */
    long firstRelocation(FunctionFacts f, boolean withAddend) {
        return relocations.stream().filter(r -> r.function().equals(f.name()) && rela(r) == withAddend)
                .mapToLong(CodeRelocation::offset).min().orElse(Long.MAX_VALUE);
    }

    /** Whether {@code r} relocates a call's target ({@code CALL.ABS}). */
    public static boolean isCall(CodeRelocation r) {
        return r.type().equals("R_CUDA_ABS47_34") || r.type().equals("R_CUDA_ABS55_16_34");
    }

    boolean rela(CodeRelocation r) {
        return flavor.hopperLayout() && !v7() || r.addend() != 0;
    }

}
