package org.jptxas.cubin;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The symbol table of a {@link CubinBuilder} cubin in ptxas 13's order (measured on single-kernel cubins): null;
 * section symbols of the notes, then of each function's code (and, below sm_90, its constant bank 0 and shared
 * memory); module data; local variables and functions; on sm_90+ the weak reserved-shared symbols; .debug_frame,
 * .nv.callgraph and .nv.rel.action; the global symbols (kernels with STO_CUDA_ENTRY); on sm_90+ the section symbols of
 * constant bank 0 come last, after the globals. sh_info of .symtab is one past the last local symbol. ptxas puts the
 * prototype strings first in .strtab.
 */
final class SymbolPlan {
    private final CubinBuilder b;
    private final SectionPlan plan;
    private final Map<String, Integer> sections;
    private final StringTable.Builder str;
    final List<Symbol> symbols = new ArrayList<>();
    /** Symbol index by name (sections by section name). */
    final Map<String, Integer> index = new HashMap<>();
    /** The .strtab offset of each .nv.prototype string. */
    final Map<String, Integer> prototypeString = new HashMap<>();
    final int firstGlobal;

    SymbolPlan(CubinBuilder b, SectionPlan plan, StringTable.Builder str) {
        this.b = b;
        this.plan = plan;
        this.sections = plan.index();
        this.str = str;
        b.prototypes.values().forEach(p -> prototypeString.put(p, str.add(p)));
        symbols.add(new Symbol("", 0, 0, 0, 0, 0, 0));
        locals();
        globals();
        int last = 0;
        for (int i = 0; i < symbols.size(); i++) {
            if (symbols.get(i).info() >> 4 == Symbol.STB_LOCAL) {
                last = i + 1;
            }
        }
        firstGlobal = last;
    }

    private void sectionSymbol(String n) {
        if (sections.containsKey(n) && !index.containsKey(n)) {
            index.put(n, symbols.size());
            symbols.add(new Symbol(n, str.add(n), Symbol.info(Symbol.STB_LOCAL, Symbol.STT_SECTION), 0, sections.get(n), 0, 0));
        }
    }

    private void function(String name, int binding, int other, FunctionFacts f) {
        index.put(name, symbols.size());
        symbols.add(new Symbol(name, str.add(name), Symbol.info(binding, Symbol.STT_FUNC), other,
                sections.get(".text." + f.name()), 0, f.code().length));
    }

    private void locals() {
        List<FunctionFacts> functions = b.functions;
        boolean bank0Last = b.flavor.hopperLayout() && !b.v7();
        sectionSymbol(".note.nv.tkinfo");
        sectionSymbol(".note.nv.cuinfo");
        for (FunctionFacts f : functions) {
            if (f.entry() && b.hiddenEntries.contains(f.name())) {
                // A kernel without .visible: a local symbol, written before its code section's.
                function(f.name(), Symbol.STB_LOCAL, Symbol.STO_CUDA_ENTRY, f);
            }
            boolean deviceFirst = f == functions.get(0) && !f.entry();
            if (deviceFirst) {
                // sm_90+: before a device function's section symbols come the weak symbols.
                weakSymbols();
            }
            if (!f.entry() && b.binding(f) != FunctionFacts.Binding.GLOBAL) {
                // An internal helper (weak) or a module-internal function (local: -c keeps recursive ones) comes
                // before its code section's symbol.
                function(f.name(), b.binding(f).elf(), 0, f);
            }
            sectionSymbol(".text." + f.name());
            if (f.sharedBytes() > 0) {
                sectionSymbol(".nv.shared." + f.name());
            }

            // Functions placed in this one's code follow its section symbols (and from sm_90 on the weak symbols
            // of the first function); global ones follow the function.
            if (!(f == functions.get(0) && b.reservesShared())) {
                innerSymbols(f);
            }
            if (!bank0Last) {
                if (b.hasConstantBank2(f.name())) {
                    sectionSymbol(".nv.constant2." + f.name());
                }
                sectionSymbol(".nv.constant0." + f.name());
                if (b.relocatable && f.entry() && !b.flavor.hopperLayout() && f.paramBytes() > 0) {
                    // Below sm_90, -c names a kernel's parameter block (CUDA 12 as ptxas 13): a CUDA object in bank 0
                    // at the parameter base.
                    symbols.add(new Symbol("_param", str.add("_param"), Symbol.info(Symbol.STB_LOCAL, Symbol.STT_CUDA_OBJECT),
                            CubinBuilder.PARAM_SYMBOL_OTHER, sections.get(".nv.constant0." + f.name()), b.paramBase(),
                            f.paramBytes()));
                } else if (b.relocatable && f.entry() && !b.flavor.hopperLayout()) {
                    // Without parameters it names the special-register area below the parameter base instead.
                    symbols.add(new Symbol("_SREG", str.add("_SREG"), Symbol.info(Symbol.STB_LOCAL, Symbol.STT_CUDA_OBJECT),
                            CubinBuilder.PARAM_SYMBOL_OTHER, sections.get(".nv.constant0." + f.name()), 0, b.paramBase()));
                }
            }
            if (f == functions.get(0) && !deviceFirst) {
                weakSymbols();
                if (b.reservesShared()) {
                    innerSymbols(f);
                }
            }
            if (bank0Last && b.hasConstantBank2(f.name())) {
                // sm_90+: jump tables, before the code, after the weak symbols
                sectionSymbol(".nv.constant2." + f.name());
            }
            if (bank0Last && !b.textureSlots(f.name()).isEmpty()) {
                // sm_90+: a bank with texture slots (relocated) is placed before the code, and so is its symbol
                sectionSymbol(".nv.constant0." + f.name());
            }
        }
        if (functions.isEmpty()) {
            weakSymbols();
        }
        for (String n : plan.names()) {
            if (n.equals(".nv.constant3")) {
                sectionSymbol(n);
                for (CubinBuilder.ConstantVariable c : b.constantVariables) {
                    if (!c.visible()) {
                        constantSymbol(c);
                    }
                }
            } else if (n.equals(".nv.constant4") || n.startsWith(".nv.global")) {
                sectionSymbol(n);
            }
        }
        for (CubinBuilder.GlobalVariable g : b.globals) {
            if (!g.visible()) {
                globalSymbol(g);
            }
        }
        if (!functions.isEmpty()) {
            sectionSymbol(".debug_frame"); // an empty .debug_frame gets no symbol
        }
        if (b.lineTables != null) {
            sectionSymbol(".debug_line");
            sectionSymbol(".nv_debug_line_sass");
            sectionSymbol(b.ptxTextSection());
        }
        if (b.writesRegisterMaps()) {
            sectionSymbol(DebugSections.REG_SASS);
            sectionSymbol(DebugSections.REG_TYPE);
        }
        b.dwarfSections().forEach(d -> sectionSymbol(d.name()));
        sectionSymbol(".nv.callgraph");
        sectionSymbol(".nv.prototype");
        sectionSymbol(".nv.rel.action");
    }

    private void globals() {
        for (CubinBuilder.GlobalVariable g : b.globals) {
            if (g.visible()) {
                globalSymbol(g);
            }
        }
        for (CubinBuilder.ConstantVariable c : b.constantVariables) {
            if (c.visible() && b.bank3 != null) {
                constantSymbol(c);
            }
        }
        boolean debugShared = !b.namesDebugShared();
        for (FunctionFacts f : b.functions) {
            int before = symbols.size();
            if (!f.entry() && b.binding(f) == FunctionFacts.Binding.GLOBAL) {
                function(f.name(), Symbol.STB_GLOBAL, 0, f);
            }
            if (f.entry() && !b.hiddenEntries.contains(f.name())) {
                function(f.name(), Symbol.STB_GLOBAL, Symbol.STO_CUDA_ENTRY, f);
            }
            if (!debugShared && symbols.size() > before) {
                debugSharedSymbols(); // -g: after the first global function (ptxas 13)
                debugShared = true;
            }
            for (FunctionFacts.InnerFunction in : f.inner()) {
                if (in.binding() == FunctionFacts.Binding.GLOBAL) {
                    innerSymbol(f, in);
                }
            }
        }
        if (!debugShared) {
            debugSharedSymbols();
        }
        if (b.relocatable) {
            // functions of other objects the code calls (CALL.ABS relocations against names defined nowhere here):
            // undefined global symbols the linker resolves, in the order the module declares them
            List<String> undefined = new ArrayList<>();
            for (CubinBuilder.CodeRelocation r : b.relocations) {
                if (!index.containsKey(r.symbol()) && !sections.containsKey(r.symbol()) && CubinBuilder.isCall(r)
                        && !undefined.contains(r.symbol())) {
                    undefined.add(r.symbol());
                }
            }
            undefined.sort(java.util.Comparator.comparingInt(n -> b.externFunctions.contains(n)
                    ? b.externFunctions.indexOf(n) : b.externFunctions.size()));
            undefined.forEach(this::undefinedFunction);
        }
        // functions the driver provides (vprintf, malloc, ...) whose addresses constant bank 4 holds: undefined
        // global symbols the loader resolves
        for (CubinBuilder.BankAddress a : b.addressTable) {
            if (!index.containsKey(a.symbol()) && !sections.containsKey(a.symbol())) {
                undefinedFunction(a.symbol());
            }
        }
        for (String t : b.textureReferences) {
            index.put(t, symbols.size());
            symbols.add(new Symbol(t, str.add(t), Symbol.info(Symbol.STB_GLOBAL, Symbol.STT_CUDA_TEXTURE), 0, 0, 0, 0));
        }
        for (FunctionFacts f : b.functions) {
            if (f.entry()) {
                sectionSymbol(".nv.constant0." + f.name());
            }
        }
    }

    private void undefinedFunction(String name) {
        index.put(name, symbols.size());
        symbols.add(new Symbol(name, str.add(name), Symbol.info(Symbol.STB_GLOBAL, Symbol.STT_FUNC), 0, 0, 0, 0));
    }

    /**
     * ptxas 13's weak symbols of sm_90+, written after the first function's section symbols: the unified
     * function/data tables (-c only) and the reserved shared-memory window (its size is the alias's offset).
     */
    private void weakSymbols() {
        if (!b.reservesShared()) {
            return;
        }
        if (b.relocatable) {
            for (String t : CubinBuilder.UNIFIED_TABLE_SYMBOLS) {
                symbols.add(new Symbol(t, str.add(t), Symbol.info(Symbol.STB_WEAK, Symbol.STT_OBJECT), 0, 0, 0, 8));
            }
        }
        long reserved = b.reservedSharedBytes();
        symbols.add(new Symbol(".nv.reservedSmem.offset0", str.add(".nv.reservedSmem.offset0"),
                Symbol.info(Symbol.STB_WEAK, Symbol.STT_OBJECT), 0, 0, reserved, 4));
        if (b.writesReservedSharedSection()) {
            symbols.add(new Symbol("__nv_reservedSMEM_offset_0_alias", str.add("__nv_reservedSMEM_offset_0_alias"),
                    Symbol.info(Symbol.STB_WEAK, Symbol.STT_NOTYPE), Symbol.STO_CUDA_RESERVED_SHARED,
                    sections.get(CubinBuilder.RESERVED_SHARED), reserved, 0));
        }
    }

    /** -g: the module's {@code .extern .shared} variables, global objects in {@code .nv_debug.shared}. */
    private void debugSharedSymbols() {
        for (CubinBuilder.ExternSharedVariable v : b.externSharedVariables) {
            index.put(v.name(), symbols.size());
            symbols.add(new Symbol(v.name(), str.add(v.name()), Symbol.info(Symbol.STB_GLOBAL, Symbol.STT_OBJECT), 0,
                    sections.get(CubinBuilder.DEBUG_SHARED), b.debugSharedValue(v), 0));
        }
    }

    private void innerSymbols(FunctionFacts host) {
        for (FunctionFacts.InnerFunction in : host.inner()) {
            if (in.binding() != FunctionFacts.Binding.GLOBAL) {
                innerSymbol(host, in);
            }
        }
    }

    private void innerSymbol(FunctionFacts host, FunctionFacts.InnerFunction in) {
        index.put(in.name(), symbols.size());
        symbols.add(new Symbol(in.name(), str.add(in.name()), Symbol.info(in.binding().elf(), Symbol.STT_FUNC), 0,
                sections.get(".text." + host.name()), in.offset(), in.size()));
    }

    private final long[] globalOffset = new long[2];

    private void globalSymbol(CubinBuilder.GlobalVariable g) {
        int slot = g.init() == null ? 0 : 1;
        String section = slot == 0 ? ".nv.global" : ".nv.global.init";
        long value = LayoutPlanner.align(globalOffset[slot], g.alignment());
        globalOffset[slot] = value + (slot == 0 ? g.size() : g.init().length);
        // Relocatable output marks variables as CUDA objects of the global storage class, as ptxas does.
        int type = b.relocatable ? Symbol.STT_CUDA_OBJECT : Symbol.STT_OBJECT;
        index.put(g.name(), symbols.size());
        symbols.add(new Symbol(g.name(), str.add(g.name()), Symbol.info(g.visible() ? Symbol.STB_GLOBAL : Symbol.STB_LOCAL,
                type), b.relocatable ? Symbol.STO_CUDA_GLOBAL : 0, sections.get(section), value, g.size()));
    }

    private void constantSymbol(CubinBuilder.ConstantVariable c) {
        int type = b.relocatable ? Symbol.STT_CUDA_OBJECT : Symbol.STT_OBJECT;
        index.put(c.name(), symbols.size());
        symbols.add(new Symbol(c.name(), str.add(c.name()), Symbol.info(c.visible() ? Symbol.STB_GLOBAL : Symbol.STB_LOCAL,
                type), b.relocatable ? Symbol.STO_CUDA_CONSTANT : 0, sections.get(".nv.constant3"), c.offset(), c.size()));
    }
}
