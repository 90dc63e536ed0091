package org.jptxas.cubin;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jptxas.cubin.info.Attribute;
import org.jptxas.cubin.info.FunctionInfo;
import org.jptxas.cubin.info.GlobalInfo;
import org.jptxas.cubin.info.NvInfo;

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
 * and {@code .nv_debug_ptx_txt} with their relocations ({@link DebugLine}). Not written: DWARF beyond the line
 * tables and, on sm_100+, the capsule-Mercury sections.
 */
public final class CubinBuilder {
    private final int sm;
    private final CubinFlavor flavor;
    private final boolean relocatable;
    private final List<FunctionFacts> functions = new ArrayList<>();
    private String options = "";
    private int abiVersion = 8;
    private boolean withoutAbi;
    private final List<GlobalVariable> globals = new ArrayList<>();
    private final List<CodeRelocation> relocations = new ArrayList<>();

    /** A variable in global memory: {@code .nv.global} when {@code init} is null, else {@code .nv.global.init}. */
    public record GlobalVariable(String name, long size, int alignment, byte[] init, boolean visible) {}

    /** A {@code .const} variable of constant bank 3: its offset in the bank, size and linkage. */
    public record ConstantVariable(String name, long offset, long size, boolean visible) {}

    private byte[] bank3;
    private final List<ConstantVariable> constantVariables = new ArrayList<>();

    /**
     * The module's {@code .const} data, {@code .nv.constant3} (code reads it as {@code c[0x3][offset]}), and the
     * variables in it.
     */
    public CubinBuilder constantBank3(byte[] data, List<ConstantVariable> variables) {
        this.bank3 = data.clone();
        constantVariables.addAll(variables);
        return this;
    }

    /** One 8-byte slot of constant bank 4: the address of {@code symbol} plus {@code addend} (relocated R_CUDA_64). */
    public record BankAddress(String symbol, long addend) {}

    private final List<BankAddress> addressTable = new ArrayList<>();

    /**
     * The addresses code reads from constant bank 4 ({@code .nv.constant4}, slot {@code i} at {@code c[0x4][8*i]}),
     * as ptxas gives kernels the addresses of module variables; each slot is relocated ({@code .rel(a).nv.constant4}).
     */
    public CubinBuilder addressTable(List<BankAddress> slots) {
        addressTable.addAll(slots);
        return this;
    }

    private boolean addressTableRela() {
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

    private final Map<String, Integer> sharedAlignment = new HashMap<>();

    /**
     * The alignment of {@code .nv.shared.<function>}: the largest of its shared variables' (4 unless set). A
     * function given an alignment but no shared bytes uses only dynamic shared memory ({@code .extern .shared}):
     * ptxas still writes its section, empty and without a section symbol.
     */
    public CubinBuilder sharedAlignment(String function, int alignment) {
        sharedAlignment.put(function, alignment);
        return this;
    }

    private boolean hasShared(FunctionFacts f) {
        return f.sharedBytes() > 0 || sharedAlignment.containsKey(f.name());
    }

    private final Map<String, FunctionFacts.Binding> deviceBindings = new HashMap<>();
    private final Map<String, String> prototypes = new java.util.LinkedHashMap<>();

    /**
     * The binding of device function {@code function}'s symbol (relocatable output): global for a
     * {@code .visible .func}, weak for ptxas's internal helpers ({@code __cuda_sm70_...}); local unless set.
     */
    public CubinBuilder functionBinding(String function, FunctionFacts.Binding binding) {
        deviceBindings.put(function, binding);
        return this;
    }

    private FunctionFacts.Binding binding(FunctionFacts f) {
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

    private final List<String> externFunctions = new ArrayList<>();

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

    private LineTables lineTables;
    private DebugLine.Encoded debugLine;
    private DebugLine.Encoded debugLineSass;

    /** Writes the line tables {@code tables}: {@code .debug_line}, {@code .nv_debug_line_sass}, {@code .nv_debug_ptx_txt}. */
    public CubinBuilder lineTables(LineTables tables) {
        this.lineTables = tables;
        return this;
    }

    /** The name of the PTX text's section: relocatable output adds the PTX's checksum. */
    private String ptxTextSection() {
        return relocatable ? ".nv_debug_ptx_txt." + lineTables.checksum() : ".nv_debug_ptx_txt";
    }

    /** Line-table relocations carry addends from sm_90 on (unlike .debug_frame's, also in -c below sm_90: REL). */
    private boolean debugLineRela() {
        return flavor.hopperLayout() && !v7();
    }

    private boolean texmodeIndependent;

    /** The module declares {@code .target ..., texmode_independent}: ptxas records TEXMODE_INDEPENDENT. */
    public CubinBuilder texmodeIndependent() {
        this.texmodeIndependent = true;
        return this;
    }

    private int ptxTarget;
    private final java.util.Set<String> hiddenEntries = new java.util.HashSet<>();

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

    private boolean v7() {
        return abiVersion == 7;
    }

    private int apiVersion() {
        return v7() ? 125 : FunctionInfo.CUDA_API_VERSION_13_0;
    }

    /** Offset of the kernel parameters in constant bank 0. */
    private int paramBase() {
        return flavor.parameterBase();
    }

    public Cubin build() {
        boolean hopperLayout = flavor.hopperLayout();
        StringTable.Builder shstr = new StringTable.Builder();
        StringTable.Builder str = new StringTable.Builder();
        List<String> names = new ArrayList<>();
        names.add("");
        names.add(".shstrtab");
        names.add(".strtab");
        names.add(".symtab");
        names.add(".debug_frame");
        if (lineTables != null) {
            names.add(".debug_line");
            names.add(".nv_debug_line_sass");
            names.add(ptxTextSection());
        }
        if (!v7()) {
            names.add(".note.nv.tkinfo");
            names.add(".note.nv.cuinfo");
        }
        names.add(".nv.info");
        if (hopperLayout && !v7()) {
            names.add(".nv.compat");
        }
        for (FunctionFacts f : functions) {
            names.add(".nv.info." + f.name());
        }
        names.add(".nv.callgraph");
        if (!prototypes.isEmpty()) {
            names.add(".nv.prototype");
        }
        if (!hopperLayout && !relocatable) {
            names.add(".nv.rel.action");
        }
        if (!addressTable.isEmpty()) {
            names.add(addressTableRela() ? ".rela.nv.constant4" : ".rel.nv.constant4");
        }
        for (FunctionFacts f : functions) {
            long firstRel = firstRelocation(f, false);
            long firstRela = firstRelocation(f, true);
            // From sm_90 on, a function with inner functions keeps an (empty) RELA section for its resolved calls.
            boolean hasRela = firstRela < Long.MAX_VALUE || hopperLayout && !v7() && !f.inner().isEmpty();
            // Of the two, ptxas writes first the one holding the relocation nearest the start of the code.
            if (hasRela && firstRela < firstRel) {
                names.add(".rela.text." + f.name());
            }
            if (firstRel < Long.MAX_VALUE) {
                names.add(".rel.text." + f.name());
            }
            if (hasRela && firstRela >= firstRel) {
                names.add(".rela.text." + f.name());
            }
        }
        if (lineTables != null) {
            String rel = debugLineRela() ? ".rela" : ".rel";
            if (!lineTables.sourceLines().isEmpty()) {
                names.add(rel + ".debug_line");
            }
            if (!lineTables.ptxLines().isEmpty()) {
                names.add(rel + ".nv_debug_line_sass");
            }
        }
        if (!functions.isEmpty()) {
            // Below sm_90, -c splits them: the entries without addend in .rel, the CIE pointers in .rela.
            if (!debugFrameRela() || relocatable && !hopperLayout) {
                names.add(".rel.debug_frame");
            }
            if (debugFrameRela()) {
                names.add(".rela.debug_frame");
            }
        }
        List<String> code = new ArrayList<>();
        List<String> data = new ArrayList<>();
        for (FunctionFacts f : functions) {
            code.add(".text." + f.name());
            if (hasShared(f)) {
                data.add(".nv.shared." + f.name());
            }
        }
        if (reservesShared() && !relocatable) {
            data.add(0, RESERVED_SHARED);
        }
        List<String> constants = new ArrayList<>();
        if (bank3 != null) {
            constants.add(".nv.constant3");
        }
        if (!addressTable.isEmpty()) {
            constants.add(".nv.constant4");
        }
        // Device functions have no parameter bank.
        functions.stream().filter(FunctionFacts::entry).map(f -> ".nv.constant0." + f.name()).forEach(constants::add);
        if (hopperLayout && !v7()) {
            names.addAll(code);
            names.addAll(data);
            names.addAll(constants);
        } else {
            names.addAll(constants);
            names.addAll(code);
            names.addAll(data);
        }
        if (globals.stream().anyMatch(g -> g.init() == null)) {
            names.add(".nv.global");
        }
        if (globals.stream().anyMatch(g -> g.init() != null)) {
            names.add(".nv.global.init");
        }
        Map<String, Integer> index = new HashMap<>();
        for (int i = 0; i < names.size(); i++) {
            index.put(names.get(i), i);
            shstr.add(names.get(i));
        }

        // Symbols in ptxas 13's order (measured on single-kernel cubins): null; section symbols of the notes, then
        // of each function's code (and, below sm_90, its constant bank 0 and shared memory); module data; local
        // variables and functions; on sm_90+ the weak reserved-shared symbols; .debug_frame, .nv.callgraph and
        // .nv.rel.action; the global symbols (kernels with STO_CUDA_ENTRY); on sm_90+ the section symbols of constant
        // bank 0 come last, after the globals. sh_info of .symtab is one past the last local symbol.
        // ptxas puts the prototype strings first in .strtab.
        prototypeString = new HashMap<>();
        prototypes.values().forEach(p -> prototypeString.put(p, str.add(p)));
        List<Symbol> symbols = new ArrayList<>();
        symbols.add(new Symbol("", 0, 0, 0, 0, 0, 0));
        Map<String, Integer> symbolIndex = new HashMap<>();
        java.util.function.Consumer<String> sectionSymbol = n -> {
            if (index.containsKey(n) && !symbolIndex.containsKey(n)) {
                symbolIndex.put(n, symbols.size());
                symbols.add(new Symbol(n, str.add(n), Symbol.info(Symbol.STB_LOCAL, Symbol.STT_SECTION), 0, index.get(n), 0, 0));
            }
        };
        boolean bank0Last = flavor.hopperLayout() && !v7();
        sectionSymbol.accept(".note.nv.tkinfo");
        sectionSymbol.accept(".note.nv.cuinfo");
        for (FunctionFacts f : functions) {
            if (f.entry() && hiddenEntries.contains(f.name())) {
                // A kernel without .visible: a local symbol, written before its code section's.
                symbolIndex.put(f.name(), symbols.size());
                symbols.add(new Symbol(f.name(), str.add(f.name()), Symbol.info(Symbol.STB_LOCAL, Symbol.STT_FUNC),
                        Symbol.STO_CUDA_ENTRY, index.get(".text." + f.name()), 0, f.code().length));
            }
            boolean deviceFirst = f == functions.get(0) && !f.entry();
            if (deviceFirst) {
                // sm_90+: before a device function's section symbols come the weak symbols.
                weakSymbols(symbols, str, index);
            }
            if (!f.entry() && binding(f) != FunctionFacts.Binding.GLOBAL) {
                // An internal helper (weak) or a module-internal function (local: -c keeps recursive ones) comes
                // before its code section's symbol.
                symbolIndex.put(f.name(), symbols.size());
                symbols.add(new Symbol(f.name(), str.add(f.name()), Symbol.info(binding(f).elf(), Symbol.STT_FUNC), 0,
                        index.get(".text." + f.name()), 0, f.code().length));
            }
            sectionSymbol.accept(".text." + f.name());
            if (f.sharedBytes() > 0) {
                sectionSymbol.accept(".nv.shared." + f.name());
            }

            // Functions placed in this one's code follow its section symbols (and from sm_90 on the weak symbols
            // of the first function); global ones follow the function.
            if (!(f == functions.get(0) && reservesShared())) {
                addInnerSymbols(f, symbols, symbolIndex, str, index);
            }
            if (!bank0Last) {
                sectionSymbol.accept(".nv.constant0." + f.name());
                if (relocatable && f.entry() && !flavor.hopperLayout() && f.paramBytes() > 0) {
                    // Below sm_90, -c names a kernel's parameter block (CUDA 12 as ptxas 13): a CUDA object in bank 0 at the
                    // parameter base.
                    symbols.add(new Symbol("_param", str.add("_param"), Symbol.info(Symbol.STB_LOCAL, Symbol.STT_CUDA_OBJECT),
                            PARAM_SYMBOL_OTHER, index.get(".nv.constant0." + f.name()), paramBase(), f.paramBytes()));
                } else if (relocatable && f.entry() && !flavor.hopperLayout()) {
                    // Without parameters it names the special-register area below the parameter base instead.
                    symbols.add(new Symbol("_SREG", str.add("_SREG"), Symbol.info(Symbol.STB_LOCAL, Symbol.STT_CUDA_OBJECT),
                            PARAM_SYMBOL_OTHER, index.get(".nv.constant0." + f.name()), 0, paramBase()));
                }
            }
            if (f == functions.get(0) && !deviceFirst) {
                weakSymbols(symbols, str, index);
                if (reservesShared()) {
                    addInnerSymbols(f, symbols, symbolIndex, str, index);
                }
            }
        }
        if (functions.isEmpty()) {
            weakSymbols(symbols, str, index);
        }
        for (String n : names) {
            if (n.equals(".nv.constant3")) {
                sectionSymbol.accept(n);
                for (ConstantVariable c : constantVariables) {
                    if (!c.visible()) {
                        addConstantSymbol(c, symbols, symbolIndex, str, index);
                    }
                }
            } else if (n.equals(".nv.constant4") || n.startsWith(".nv.global")) {
                sectionSymbol.accept(n);
            }
        }
        long[] globalOffset = new long[2];
        for (GlobalVariable g : globals) {
            if (g.visible()) {
                continue;
            }
            addGlobalSymbol(g, symbols, symbolIndex, str, index, globalOffset);
        }
        if (!functions.isEmpty()) {
            sectionSymbol.accept(".debug_frame"); // an empty .debug_frame gets no symbol
        }
        if (lineTables != null) {
            sectionSymbol.accept(".debug_line");
            sectionSymbol.accept(".nv_debug_line_sass");
            sectionSymbol.accept(ptxTextSection());
        }
        sectionSymbol.accept(".nv.callgraph");
        sectionSymbol.accept(".nv.prototype");
        sectionSymbol.accept(".nv.rel.action");
        for (GlobalVariable g : globals) {
            if (g.visible()) {
                addGlobalSymbol(g, symbols, symbolIndex, str, index, globalOffset);
            }
        }
        for (ConstantVariable c : constantVariables) {
            if (c.visible() && bank3 != null) {
                addConstantSymbol(c, symbols, symbolIndex, str, index);
            }
        }
        for (FunctionFacts f : functions) {
            if (!f.entry() && binding(f) == FunctionFacts.Binding.GLOBAL) {
                symbolIndex.put(f.name(), symbols.size());
                symbols.add(new Symbol(f.name(), str.add(f.name()), Symbol.info(Symbol.STB_GLOBAL, Symbol.STT_FUNC), 0,
                        index.get(".text." + f.name()), 0, f.code().length));
            }
            if (f.entry() && !hiddenEntries.contains(f.name())) {
                symbolIndex.put(f.name(), symbols.size());
                symbols.add(new Symbol(f.name(), str.add(f.name()), Symbol.info(Symbol.STB_GLOBAL, Symbol.STT_FUNC),
                        Symbol.STO_CUDA_ENTRY, index.get(".text." + f.name()), 0, f.code().length));
            }
            for (FunctionFacts.InnerFunction in : f.inner()) {
                if (in.binding() == FunctionFacts.Binding.GLOBAL) {
                    addInnerSymbol(f, in, symbols, symbolIndex, str, index);
                }
            }
        }
        if (relocatable) {
            // functions of other objects the code calls (CALL.ABS relocations against names defined nowhere here):
            // undefined global symbols the linker resolves, in the order the module declares them
            List<String> undefined = new ArrayList<>();
            for (CodeRelocation r : relocations) {
                if (!symbolIndex.containsKey(r.symbol()) && !index.containsKey(r.symbol()) && isCall(r)
                        && !undefined.contains(r.symbol())) {
                    undefined.add(r.symbol());
                }
            }
            undefined.sort(java.util.Comparator.comparingInt(n -> externFunctions.contains(n)
                    ? externFunctions.indexOf(n) : externFunctions.size()));
            for (String u : undefined) {
                symbolIndex.put(u, symbols.size());
                symbols.add(new Symbol(u, str.add(u), Symbol.info(Symbol.STB_GLOBAL, Symbol.STT_FUNC), 0, 0, 0, 0));
            }
        }
        // functions the driver provides (vprintf, malloc, ...) whose addresses constant bank 4 holds: undefined
        // global symbols the loader resolves
        for (BankAddress a : addressTable) {
            if (!symbolIndex.containsKey(a.symbol()) && !index.containsKey(a.symbol())) {
                symbolIndex.put(a.symbol(), symbols.size());
                symbols.add(new Symbol(a.symbol(), str.add(a.symbol()), Symbol.info(Symbol.STB_GLOBAL, Symbol.STT_FUNC),
                        0, 0, 0, 0));
            }
        }
        for (FunctionFacts f : functions) {
            if (f.entry()) {
                sectionSymbol.accept(".nv.constant0." + f.name());
            }
        }
        int firstGlobal = 0;
        for (int i = 0; i < symbols.size(); i++) {
            if (symbols.get(i).info() >> 4 == Symbol.STB_LOCAL) {
                firstGlobal = i + 1;
            }
        }

        int symtab = index.get(".symtab");
        debugFrame = DebugFrame.encode(flavor, functions, relocatable);
        if (lineTables != null) {
            debugLine = DebugLine.encode(lineTables.files(), lineTables.sourceLines());
            // Relocatable output names the PTX text's section as the table's one file; executables name none.
            debugLineSass = DebugLine.encode(relocatable ? List.of(new DebugLine.File(ptxTextSection(), 0, 0))
                    : List.of(), lineTables.ptxLines());
        }
        List<Section> sections = new ArrayList<>();
        for (String n : names) {
            sections.add(section(n, index, symbols, symbolIndex, shstr, str, symtab, firstGlobal));
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
                        ElfHeader.EM_CUDA, 1, 0, ElfFlags.v8(sm, flavor.elfFlagsArch()), 64, relocatable ? 0 : 56, 64, 1);
        return new Cubin(header, sections, phdrs, layout);
    }

    private Section section(String n, Map<String, Integer> index, List<Symbol> symbols, Map<String, Integer> symbolIndex,
                            StringTable.Builder shstr, StringTable.Builder str, int symtab, int firstGlobal) {
        int name = shstr.add(n);
        if (n.isEmpty()) {
            return new Section("", 0, SectionType.NULL, 0, 0, 0, 0, 0, 0, 0, null);
        }
        switch (n) {
            case ".shstrtab", ".strtab" -> {
                return new Section(n, name, SectionType.STRTAB, 0, 0, 0, 0, 0, 1, 0, null);
            }
            case ".symtab" -> {
                byte[] b = SymbolTable.encode(symbols);
                return new Section(n, name, SectionType.SYMTAB, 0, 0, b.length, index.get(".strtab"), firstGlobal, 8,
                        SymbolTable.ENTRY_SIZE, b);
            }
            case ".note.nv.tkinfo" -> {
                byte[] b = Note.encode(List.of(tkinfo()));
                return new Section(n, name, SectionType.NOTE, 0x02000000L, 0, b.length, 0, 0, 4, 0, b);
            }
            case ".note.nv.cuinfo" -> {
                byte[] b = Note.encode(List.of(Note.cuinfo(ptxTarget, FunctionInfo.CUDA_API_VERSION_13_0)));
                // From sm_90 on it also points (SHF_INFO_LINK) at .nv.compat.
                return new Section(n, name, SectionType.NOTE, flavor.hopperLayout() ? 0x01000040L : 0x01000000L, 0, b.length,
                        index.get(".note.nv.tkinfo"), index.getOrDefault(".nv.compat", 0), 4, 0, b);
            }
            case ".nv.info" -> {
                byte[] b = NvInfo.encode(globalInfo(symbolIndex));
                return new Section(n, name, SectionType.CUDA_INFO, 0, 0, b.length, symtab, 0, 4, 0, b);
            }
            case ".debug_frame" -> {
                byte[] b = debugFrame.bytes();
                return new Section(n, name, SectionType.PROGBITS, 0, 0, b.length, 0, 0, 1, 0, b);
            }
            case ".debug_line", ".nv_debug_line_sass" -> {
                byte[] b = (n.equals(".debug_line") ? debugLine : debugLineSass).bytes();
                return new Section(n, name, SectionType.PROGBITS, 0, 0, b.length, 0, 0, 1, 0, b);
            }
            case ".rel.debug_line", ".rela.debug_line", ".rel.nv_debug_line_sass", ".rela.nv_debug_line_sass" -> {
                boolean withAddend = n.startsWith(".rela.");
                String table = n.substring(n.indexOf(".", 1));
                List<Relocation> list = new ArrayList<>();
                for (DebugLine.Address a : (table.equals(".debug_line") ? debugLine : debugLineSass).addresses()) {
                    list.add(new Relocation(a.offset(), symbolIndex.get(a.function()), Relocation.typeCode("R_CUDA_64"), 0));
                }
                byte[] b = Relocations.encode(list, withAddend);
                return new Section(n, name, withAddend ? SectionType.RELA : SectionType.REL, Section.SHF_INFO_LINK, 0,
                        b.length, symtab, index.get(table), 8, Relocations.entrySize(withAddend), b);
            }
            case ".rel.debug_frame", ".rela.debug_frame" -> {
                boolean withAddend = n.startsWith(".rela.");
                // Below sm_90, -c splits them: R_CUDA_64 without addend (the locations, the first CIE pointer) in
                // .rel, the rest (address ranges, the other CIE pointers) in .rela.
                boolean split = relocatable && !flavor.hopperLayout();
                // ptxas lists them function by function from the last to the first: the FDEs' fields (from the last
                // FDE to the first, each from its last field to its first), then the addresses in the CIEs of the
                // functions placed inside it, also from the last to the first.
                List<Relocation> all = new ArrayList<>();
                int r64 = Relocation.typeCode("R_CUDA_64");
                List<DebugFrame.Fde> fdes = debugFrame.fdes();
                for (int k = functions.size() - 1; k >= 0; k--) {
                    int fn = symbolIndex.get(functions.get(k).name());
                    for (int i = fdes.size() - 1; i >= 0; i--) {
                        DebugFrame.Fde fde = fdes.get(i);
                        if (fde.function() != k) {
                            continue;
                        }
                        if (relocatable) {
                            all.add(new Relocation(fde.fdeOffset() + DebugFrame.RANGE_FIELD, fn,
                                    Relocation.typeCode("R_CUDA_UNUSED_CLEAR64"), 0));
                        }
                        // The location field holds the inner function's offset, which REL adds in place.
                        all.add(new Relocation(fde.fdeOffset() + DebugFrame.LOCATION_FIELD, fn, r64,
                                withAddend ? fde.location() : 0));
                        if (relocatable) {
                            all.add(new Relocation(fde.fdeOffset() + DebugFrame.CIE_POINTER_FIELD,
                                    symbolIndex.get(".debug_frame"), r64, fde.ciePointerAddend()));
                        }
                    }
                    for (int i = fdes.size() - 1; i >= 0; i--) {
                        DebugFrame.Fde fde = fdes.get(i);
                        if (fde.function() == k && fde.cieAddressOffset() >= 0) {
                            all.add(new Relocation(fde.cieAddressOffset(), fn, r64, 0));
                        }
                    }
                }
                List<Relocation> list = new ArrayList<>();
                for (Relocation r : all) {
                    boolean inRel = r.type() == r64 && r.addend() == 0;
                    if (!split || inRel != withAddend) {
                        list.add(r);
                    }
                }
                byte[] b = Relocations.encode(list, withAddend);
                return new Section(n, name, withAddend ? SectionType.RELA : SectionType.REL, Section.SHF_INFO_LINK, 0,
                        b.length, symtab, index.get(".debug_frame"), 8, Relocations.entrySize(withAddend), b);
            }
            case RESERVED_SHARED -> {
                return new Section(n, name, SectionType.NOBITS, Section.SHF_WRITE | Section.SHF_ALLOC, 0,
                        reservedSharedBytes(), 0, 0, 1, 0, null);
            }
            case ".nv.compat" -> {
                byte[] b = NvInfo.encode(compat());
                return new Section(n, name, SectionType.CUDA_COMPAT, 0, 0, b.length, 0, 0, 4, 0, b);
            }
            case ".nv.rel.action" -> {
                return new Section(n, name, SectionType.CUDA_RELOCINFO, 0, 0, REL_ACTION.length, 0, 0, 8, 8, REL_ACTION);
            }
            case ".nv.global" -> {
                long size = 0;
                long align = 1;
                for (GlobalVariable g : globals) {
                    if (g.init() == null) {
                        size = LayoutPlanner.align(size, g.alignment()) + g.size();
                        align = Math.max(align, g.alignment());
                    }
                }
                return new Section(n, name, relocatable ? SectionType.CUDA_GLOBAL : SectionType.NOBITS,
                        Section.SHF_WRITE | Section.SHF_ALLOC, 0, size, 0, 0, align, 0, null);
            }
            case ".nv.global.init" -> {
                ByteWriter w = new ByteWriter();
                long align = 1;
                for (GlobalVariable g : globals) {
                    if (g.init() != null) {
                        w.padTo(LayoutPlanner.align(w.size(), g.alignment()));
                        w.bytes(g.init());
                        align = Math.max(align, g.alignment());
                    }
                }
                byte[] b = w.toByteArray();
                return new Section(n, name, relocatable ? SectionType.CUDA_GLOBAL_INIT : SectionType.PROGBITS,
                        Section.SHF_WRITE | Section.SHF_ALLOC, 0, b.length, 0, 0, align, 0, b);
            }
            case ".nv.constant3" -> {
                return new Section(n, name, relocatable ? SectionType.CUDA_CONSTANT_B0 + 3 : SectionType.PROGBITS,
                        Section.SHF_ALLOC, 0, bank3.length, 0, 0, 4, 0, bank3);
            }
            case ".nv.constant4" -> {
                int size = 8 * addressTable.size();
                return new Section(n, name, relocatable ? SectionType.CUDA_CONSTANT_B0 + 4 : SectionType.PROGBITS,
                        Section.SHF_ALLOC, 0, size, 0, 0, 8, 0, new byte[size]);
            }
            case ".rel.nv.constant4", ".rela.nv.constant4" -> {
                boolean withAddend = n.startsWith(".rela.");
                List<Relocation> list = new ArrayList<>();
                for (int i = 0; i < addressTable.size(); i++) {
                    BankAddress a = addressTable.get(i);
                    Integer sym = symbolIndex.get(a.symbol());
                    if (sym == null) {
                        throw new IllegalArgumentException("address of unknown symbol " + a.symbol());
                    }
                    list.add(new Relocation(8L * i, sym, Relocation.typeCode("R_CUDA_64"), a.addend()));
                }
                byte[] b = Relocations.encode(list, withAddend);
                return new Section(n, name, withAddend ? SectionType.RELA : SectionType.REL, Section.SHF_INFO_LINK, 0,
                        b.length, symtab, index.get(".nv.constant4"), 8, Relocations.entrySize(withAddend), b);
            }
            case ".nv.prototype" -> {
                // By symbol index (the strings are in .strtab in the order given).
                java.util.TreeMap<Integer, String> bySymbol = new java.util.TreeMap<>();
                for (Map.Entry<String, String> p : prototypes.entrySet()) {
                    Integer sym = symbolIndex.get(p.getKey());
                    if (sym == null) {
                        throw new IllegalArgumentException("prototype of unknown function " + p.getKey());
                    }
                    bySymbol.put(sym, p.getValue());
                }
                ByteWriter w = new ByteWriter();
                bySymbol.forEach((sym, p) -> w.u32(sym).u32(prototypeString.get(p)));
                byte[] b = w.toByteArray();
                return new Section(n, name, SectionType.CUDA_PROTOTYPE, 0, 0, b.length, symtab, 0, 4, 8, b);
            }
            case ".nv.callgraph" -> {
                ByteWriter w = new ByteWriter();
                ByteWriter calls = new ByteWriter();
                for (FunctionFacts f : functions) {
                    for (String callee : f.callees()) {
                        if (symbolIndex.containsKey(callee)) {
                            calls.u32(symbolIndex.get(f.name())).u32(symbolIndex.get(callee));
                        }
                    }
                }
                for (int k = 1; k <= 4; k++) {
                    w.u32(0).u32(-k);
                    // Relocatable output lists the direct calls after the first marker.
                    if (k == 1 && relocatable || k == 4 && !relocatable) {
                        w.bytes(calls.toByteArray());
                    }
                }
                byte[] b = w.toByteArray();
                return new Section(n, name, SectionType.CUDA_CALLGRAPH, 0, 0, b.length, symtab, 0, 4, 8, b);
            }
            default -> { }
        }
        if (lineTables != null && n.equals(ptxTextSection())) {
            byte[] b = lineTables.ptxText();
            return new Section(n, name, SectionType.PROGBITS, 0, 0, b.length, 0, 0, 1, 0, b);
        }
        FunctionFacts f = functions.stream().filter(x -> n.endsWith("." + x.name())).findFirst().orElseThrow();
        int text = index.get(".text." + f.name());
        if (n.startsWith(".rel.text.") || n.startsWith(".rela.text.")) {
            boolean withAddend = n.startsWith(".rela.");
            List<Relocation> list = new ArrayList<>();
            for (CodeRelocation r : relocations) {
                if (r.function().equals(f.name()) && rela(r) == withAddend) {
                    Integer sym = symbolIndex.get(r.symbol());
                    if (sym == null) {
                        throw new IllegalArgumentException("relocation against unknown symbol " + r.symbol());
                    }
                    list.add(new Relocation(r.offset(), sym, Relocation.typeCode(r.type()), r.addend()));
                }
            }
            // ptxas lists a function's code relocations from the last instruction to the first.
            list.sort(java.util.Comparator.comparingLong(Relocation::offset).reversed());
            byte[] b = Relocations.encode(list, withAddend);
            return new Section(n, name, withAddend ? SectionType.RELA : SectionType.REL, Section.SHF_INFO_LINK, 0,
                    b.length, symtab, text, 8, Relocations.entrySize(withAddend), b);
        }
        if (n.startsWith(".nv.info.")) {
            byte[] b = NvInfo.encode(FunctionInfo.records(sm, withCallRecords(f, symbols, symbolIndex), paramBase(),
                    symbolIndex.getOrDefault(".nv.constant0." + f.name(), 0), apiVersion(), v7()));
            return new Section(n, name, SectionType.CUDA_INFO, Section.SHF_INFO_LINK, 0, b.length, symtab, text, 4, 0, b);
        }
        if (n.startsWith(".text.")) {
            int info = symbolIndex.get(f.name()) | (!flavor.hopperLayout() || v7() ? f.registers() << 24 : 0);
            long barriers = v7() ? (long) f.barriers() << 20 : 0;
            byte[] b = f.code();
            return new Section(n, name, SectionType.PROGBITS, Section.SHF_ALLOC | Section.SHF_EXECINSTR | barriers, 0, b.length,
                    symtab, info, 128, 0, b);
        }
        if (n.startsWith(".nv.shared.")) {
            return new Section(n, name, relocatable ? SectionType.CUDA_SHARED : SectionType.NOBITS,
                    Section.SHF_WRITE | Section.SHF_ALLOC | Section.SHF_INFO_LINK, 0, f.sharedBytes(), 0, text,
                    sharedAlignment.getOrDefault(f.name(), 4), 0, null);
        }
        byte[] b = new byte[paramBase() + f.paramBytes()];
        return new Section(n, name, relocatable ? SectionType.CUDA_CONSTANT_B0 : SectionType.PROGBITS,
                Section.SHF_ALLOC | Section.SHF_INFO_LINK, 0, b.length, 0, text, 4, 0, b);
    }

    /**
     * ptxas 13's weak symbols of sm_90+, written after the first function's section symbols: the unified
     * function/data tables (-c only) and the reserved shared-memory window (its size is the alias's offset).
     */
    private void weakSymbols(List<Symbol> symbols, StringTable.Builder str, Map<String, Integer> index) {
        if (!reservesShared()) {
            return;
        }
        if (relocatable) {
            for (String t : UNIFIED_TABLE_SYMBOLS) {
                symbols.add(new Symbol(t, str.add(t), Symbol.info(Symbol.STB_WEAK, Symbol.STT_OBJECT), 0, 0, 0, 8));
            }
        }
        long reserved = reservedSharedBytes();
        symbols.add(new Symbol(".nv.reservedSmem.offset0", str.add(".nv.reservedSmem.offset0"),
                Symbol.info(Symbol.STB_WEAK, Symbol.STT_OBJECT), 0, 0, reserved, 4));
        if (!relocatable) {
            symbols.add(new Symbol("__nv_reservedSMEM_offset_0_alias", str.add("__nv_reservedSMEM_offset_0_alias"),
                    Symbol.info(Symbol.STB_WEAK, Symbol.STT_NOTYPE), Symbol.STO_CUDA_RESERVED_SHARED,
                    index.get(RESERVED_SHARED), reserved, 0));
        }
    }

    private DebugFrame.Encoded debugFrame;
    static final int TEXMODE_INDEPENDENT = 0x4d;
    static final int EXTERNS = 0x0f;
    static final int GLOBAL_MIN_STACK_SIZE = 0x12;
    private Map<String, Integer> prototypeString;

    /** {@code st_other} of {@code _param}: the constant storage class with bit 0 set, as ptxas writes it. */
    static final int PARAM_SYMBOL_OTHER = 0x81;

    /** The shared-memory window ptxas 13 reserves from sm_90 on (executables get a section for it). */
    static final String RESERVED_SHARED = ".nv.shared.reserved.0";

    static final List<String> UNIFIED_TABLE_SYMBOLS = List.of("__UDT_OFFSET", "__UFT_OFFSET", "__UFT_CANONICAL",
            "__UDT_CANONICAL", "__UFT", "__UDT", "__UFT_END", "__UDT_END");

    private boolean reservesShared() {
        return flavor.hopperLayout() && !v7();
    }

    /** Bytes of {@code .nv.shared.reserved.0}: 0 on sm_90, 0x40 from sm_100 on. */
    private long reservedSharedBytes() {
        return flavor.reservedSharedSection();
    }

    /** {@code .debug_frame}'s relocations carry addends in relocatable output and from sm_90 on. */
    private boolean debugFrameRela() {
        return relocatable || flavor.hopperLayout() && !v7();
    }

    /** The offset of {@code f}'s first relocation of the kind (with or without addend); MAX_VALUE if none. */
    private long firstRelocation(FunctionFacts f, boolean withAddend) {
        return relocations.stream().filter(r -> r.function().equals(f.name()) && rela(r) == withAddend)
                .mapToLong(CodeRelocation::offset).min().orElse(Long.MAX_VALUE);
    }

    /** Whether {@code r} relocates a call's target ({@code CALL.ABS}). */
    public static boolean isCall(CodeRelocation r) {
        return r.type().equals("R_CUDA_ABS47_34") || r.type().equals("R_CUDA_ABS55_16_34");
    }

    /** {@code f} with the EXTERNS record of its calls: the undefined functions it calls, by symbol index. */
    private FunctionFacts withCallRecords(FunctionFacts f, List<Symbol> symbols, Map<String, Integer> symbolIndex) {
        java.util.TreeSet<Integer> externs = new java.util.TreeSet<>();
        for (CodeRelocation r : relocations) {
            if (r.function().equals(f.name()) && isCall(r)) {
                Integer sym = symbolIndex.get(r.symbol());
                if (sym != null && symbols.get(sym).shndx() == 0) {
                    externs.add(sym);
                }
            }
        }
        if (externs.isEmpty() || f.extraAttributes().stream().anyMatch(a -> a.code() == EXTERNS)) {
            return f; // none, or given with the facts (read back from a cubin)
        }
        List<Attribute> extra = new ArrayList<>(f.extraAttributes());
        extra.add(new Attribute.Words(EXTERNS, externs.stream().mapToInt(Integer::intValue).toArray()));
        return new FunctionFacts(f.name(), f.entry(), f.code(), f.registers(), f.frameSize(), f.minStackSize(),
                f.maxStackSize(), f.sharedBytes(), f.params(), f.paramBytes(), f.barriers(), f.exitOffsets(),
                f.crsStackSize(), f.maxRegCount(), extra, f.callees(), f.inner());
    }

    private boolean rela(CodeRelocation r) {
        return flavor.hopperLayout() && !v7() || r.addend() != 0;
    }

    private static void addInnerSymbols(FunctionFacts host, List<Symbol> symbols, Map<String, Integer> symbolIndex,
                                        StringTable.Builder str, Map<String, Integer> index) {
        for (FunctionFacts.InnerFunction in : host.inner()) {
            if (in.binding() != FunctionFacts.Binding.GLOBAL) {
                addInnerSymbol(host, in, symbols, symbolIndex, str, index);
            }
        }
    }

    private static void addInnerSymbol(FunctionFacts host, FunctionFacts.InnerFunction in, List<Symbol> symbols,
                                       Map<String, Integer> symbolIndex, StringTable.Builder str, Map<String, Integer> index) {
        symbolIndex.put(in.name(), symbols.size());
        symbols.add(new Symbol(in.name(), str.add(in.name()), Symbol.info(in.binding().elf(), Symbol.STT_FUNC), 0,
                index.get(".text." + host.name()), in.offset(), in.size()));
    }

    private void addGlobalSymbol(GlobalVariable g, List<Symbol> symbols, Map<String, Integer> symbolIndex,
                                 StringTable.Builder str, Map<String, Integer> index, long[] offsets) {
        int slot = g.init() == null ? 0 : 1;
        String section = slot == 0 ? ".nv.global" : ".nv.global.init";
        long value = LayoutPlanner.align(offsets[slot], g.alignment());
        offsets[slot] = value + (slot == 0 ? g.size() : g.init().length);
        // Relocatable output marks variables as CUDA objects of the global storage class, as ptxas does.
        int type = relocatable ? Symbol.STT_CUDA_OBJECT : Symbol.STT_OBJECT;
        symbolIndex.put(g.name(), symbols.size());
        symbols.add(new Symbol(g.name(), str.add(g.name()), Symbol.info(g.visible() ? Symbol.STB_GLOBAL : Symbol.STB_LOCAL,
                type), relocatable ? Symbol.STO_CUDA_GLOBAL : 0, index.get(section), value, g.size()));
    }

    private void addConstantSymbol(ConstantVariable c, List<Symbol> symbols, Map<String, Integer> symbolIndex,
                                   StringTable.Builder str, Map<String, Integer> index) {
        int type = relocatable ? Symbol.STT_CUDA_OBJECT : Symbol.STT_OBJECT;
        symbolIndex.put(c.name(), symbols.size());
        symbols.add(new Symbol(c.name(), str.add(c.name()), Symbol.info(c.visible() ? Symbol.STB_GLOBAL : Symbol.STB_LOCAL,
                type), relocatable ? Symbol.STO_CUDA_CONSTANT : 0, index.get(".nv.constant3"), c.offset(), c.size()));
    }

    private List<Attribute> globalInfo(Map<String, Integer> symbolIndex) {
        List<Attribute> records = new ArrayList<>(GlobalInfo.records(functions, relocatable, symbolIndex::get));
        if (texmodeIndependent) {
            // After the functions' records, before the kernels' MIN_STACK_SIZE.
            int at = records.size();
            while (at > 0 && records.get(at - 1).code() == GLOBAL_MIN_STACK_SIZE) {
                at--;
            }
            records.add(at, new Attribute.Flag(TEXMODE_INDEPENDENT));
        }
        if (!v7() && functions.stream().noneMatch(FunctionFacts::entry)) {
            // Without kernels ptxas records the Mercury ISA version module-wide.
            records.add(new Attribute.Inline(0x5f, org.jptxas.cubin.info.EiFormat.HVAL,
                    org.jptxas.cubin.tables.CubinTables.nvInfoRules(sm).mercuryIsaVersion()));
        }
        return records;
    }

    /** The seven .nv.compat records ptxas 13 writes on sm_90+. */
    private List<Attribute> compat() {
        byte[] fastpath = new byte[8];
        fastpath[0] = (byte) flavor.compatFastpath();
        return List.of(
                new Attribute.Inline(9, org.jptxas.cubin.info.EiFormat.BVAL, 0),
                new Attribute.Inline(2, org.jptxas.cubin.info.EiFormat.BVAL, 1),
                new Attribute.Inline(5, org.jptxas.cubin.info.EiFormat.BVAL, 5),
                new Attribute.Inline(7, org.jptxas.cubin.info.EiFormat.HVAL, 0x0101),
                new Attribute.Inline(3, org.jptxas.cubin.info.EiFormat.BVAL, 0),
                new Attribute.Inline(6, org.jptxas.cubin.info.EiFormat.BVAL, 1),
                new Attribute.Raw(4, 11, 8, fastpath));
    }

    /** tkinfo: version 2, zero, offsets of tool name, toolkit, build and options in the string area. */
    private Note tkinfo() {
        String[] strings = {"jptxas", "jptxas, an open PTX assembler", "jptxas 0.1.0", options};
        ByteWriter area = new ByteWriter();
        int[] offsets = new int[strings.length];
        for (int i = 0; i < strings.length; i++) {
            offsets[i] = area.size();
            area.bytes(strings[i].getBytes(StandardCharsets.UTF_8)).u8(0);
        }
        ByteWriter d = new ByteWriter().u32(2).u32(0);
        for (int o : offsets) {
            d.u32(o);
        }
        d.bytes(area.toByteArray());
        d.padTo((d.size() + 3) & ~3);
        return new Note("NVIDIA Corp", Note.NT_CUDA_TKINFO, d.toByteArray());
    }
}
