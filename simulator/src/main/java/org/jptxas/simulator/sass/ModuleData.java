package org.jptxas.simulator.sass;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jptxas.cubin.Cubin;
import org.jptxas.cubin.Relocation;
import org.jptxas.cubin.Relocations;
import org.jptxas.cubin.Section;
import org.jptxas.cubin.SectionType;
import org.jptxas.cubin.Symbol;
import org.jptxas.cubin.info.Attribute;
import org.jptxas.cubin.info.NvInfo;
import org.jptxas.simulator.launch.Dim3;
import org.jptxas.simulator.memory.GlobalMemory;
import org.jptxas.simulator.memory.Region;

/**
 * A cubin's module data as the driver loads it: the constant banks other than 0, and the module variables of
 * {@code .nv.global} / {@code .nv.global.init}, placed in device memory at each launch, whose addresses reach the code
 * through relocations of the constant banks ({@code .rel(a).nv.constantN}) and of the variables' own initial data
 * ({@code .rel(a).nv.global.init}). Immutable: each launch gets its own
 * copies of what it may change (variables, relocated banks); unrelocated banks are shared read-only.
 */
final class ModuleData {
    private static final Pattern BANK = Pattern.compile("\\.nv\\.constant(\\d+)(?:\\.(.+))?");

    /** A constant bank: {@code owner} is the kernel for {@code .nv.constantN.<kernel>}, "" for module-wide banks. */
    private record Bank(String owner, int number, byte[] data) {}

    /** A module-variable section and the bytes it starts with (zeros for {@code .nv.global}). */
    private record VariableSection(int index, String name, byte[] init) {}

    /**
     * One relocation by the address of a module variable: of a constant bank, or of a variable section
     * ({@code .rel(a).nv.global.init}: addresses in variables' initializers).
     */
    private record Patch(int targetSection, long offset, int type, int symbolSection, long symbolValue, long addend) {}

    /**
     * Where system calls (undefined functions such as {@code vprintf}, {@code malloc}, {@code __assertfail} whose
     * addresses the code loads from a constant bank) appear to live: the k-th at {@code SYSTEM_CALLS + 16 * k}, far
     * from code and data, so a call there is recognized by its address.
     */
    static final long SYSTEM_CALLS = 0x7fff_0000_0000_0000L;

    private final Map<Integer, Bank> banks;
    private final List<VariableSection> variables;
    private final List<Patch> patches;
    private final Optional<String> unsupported;
    private final List<String> systemCalls;
    /** Per kernel, the banks it sees when the module has no variables (then nothing changes between launches). */
    private final Map<String, Map<Integer, byte[]>> unrelocated = new java.util.concurrent.ConcurrentHashMap<>();

    private ModuleData(Map<Integer, Bank> banks, List<VariableSection> variables, List<Patch> patches,
                       Optional<String> unsupported, List<String> systemCalls) {
        this.systemCalls = systemCalls;
        this.banks = banks;
        this.variables = variables;
        this.patches = patches;
        this.unsupported = unsupported;
    }

    static ModuleData of(Cubin cubin) {
        Map<Integer, Bank> banks = new HashMap<>();
        List<VariableSection> variables = new ArrayList<>();
        List<Section> sections = cubin.sections();
        for (int i = 0; i < sections.size(); i++) {
            Section s = sections.get(i);
            Matcher m = BANK.matcher(s.name());
            if (m.matches() && !m.group(1).equals("0")) {
                byte[] data = s.type() == SectionType.NOBITS ? new byte[(int) s.size()] : s.data();
                banks.put(i, new Bank(m.group(2) == null ? "" : m.group(2), Integer.parseInt(m.group(1)), data));
            }
            if (s.name().equals(".nv.global") || s.name().equals(".nv.global.init")) {
                byte[] init = s.type() == SectionType.NOBITS ? new byte[(int) s.size()] : s.data();
                variables.add(new VariableSection(i, s.name(), init));
            }
        }
        List<Symbol> symbols = cubin.symbols();
        List<Patch> patches = new ArrayList<>();
        List<String> systemCalls = new ArrayList<>();
        String unsupported = null;
        for (Section s : sections) {
            if (s.type() != SectionType.REL && s.type() != SectionType.RELA) {
                continue;
            }
            boolean intoBank = banks.containsKey(s.info());
            boolean intoVariables = variables.stream().anyMatch(v -> v.index() == s.info());
            boolean intoText = s.info() > 0 && s.info() < sections.size() && sections.get(s.info()).isText();
            if (!intoBank && !intoText && !intoVariables) {
                continue; // debug info
            }
            for (Relocation r : Relocations.decode(s)) {
                Symbol sym = r.symbol() < symbols.size() ? symbols.get(r.symbol()) : null;
                boolean toVariable = sym != null && variables.stream().anyMatch(v -> v.index() == sym.shndx());
                boolean toSystemCall = sym != null && sym.shndx() == Symbol.SHN_UNDEF
                        && sym.symbolType() == Symbol.STT_FUNC;
                if ((intoBank || intoVariables) && toVariable) {
                    patches.add(new Patch(s.info(), r.offset(), r.type(), sym.shndx(), sym.value(), r.addend()));
                } else if (intoBank && toSystemCall) {
                    if (!systemCalls.contains(sym.name())) {
                        systemCalls.add(sym.name());
                    }
                    // a fixed address: patched once here, not per launch
                    Bank b = banks.get(s.info());
                    byte[] data = b.data().clone();
                    Relocations.apply(data, r.offset(), r.type(),
                            SYSTEM_CALLS + 16L * systemCalls.indexOf(sym.name()) + r.addend());
                    banks.put(s.info(), new Bank(b.owner(), b.number(), data));
                } else if (intoBank || intoVariables) {
                    unsupported = "relocation " + r.typeName() + " of " + sections.get(s.info()).name() + " to "
                            + (sym == null ? "symbol " + r.symbol() : "'" + sym.name() + "'");
                } else if (toVariable) {
                    // Code that embeds a variable's address would have to be decoded again per launch.
                    unsupported = "relocation " + r.typeName() + " of " + sections.get(s.info()).name()
                            + " to module variable '" + sym.name() + "'";
                }
                // Other code relocations (sm_90 shared windows, calls) need nothing: the emulator places shared
                // memory where they point and resolves calls by address.
            }
        }
        return new ModuleData(Map.copyOf(banks), List.copyOf(variables), List.copyOf(patches),
                Optional.ofNullable(unsupported).map(u -> "loading a cubin with " + u), List.copyOf(systemCalls));
    }

    /** The system call at {@code address} (see {@link #SYSTEM_CALLS}), if it is one. */
    Optional<String> systemCallAt(long address) {
        long k = (address - SYSTEM_CALLS) / 16;
        return address >= SYSTEM_CALLS && address % 16 == 0 && k < systemCalls.size()
                ? Optional.of(systemCalls.get((int) k)) : Optional.empty();
    }

    /** A loader step this cubin needs that the emulator lacks (launches then stop by name). */
    Optional<String> unsupported() {
        return unsupported;
    }

    /**
     * Places the module variables in {@code global} and returns the constant banks {@code entry} sees (module-wide
     * banks overridden by its own), relocated to those addresses.
     */
    Map<Integer, byte[]> load(String entry, GlobalMemory global) {
        if (variables.isEmpty() && patches.isEmpty()) { // nothing to place or relocate: the same read-only banks each time
            return unrelocated.computeIfAbsent(entry, e -> Map.copyOf(visible(e, banks.entrySet().stream()
                    .collect(java.util.stream.Collectors.toMap(Map.Entry::getKey, x -> x.getValue().data())))));
        }
        Map<Integer, Long> sectionBase = new HashMap<>();
        Map<Integer, byte[]> placed = new HashMap<>();
        for (VariableSection v : variables) {
            Region r = global.allocate(v.name(), v.init().length);
            System.arraycopy(v.init(), 0, r.bytes(), 0, v.init().length);
            sectionBase.put(v.index(), r.base());
            placed.put(v.index(), r.bytes());
        }
        // Banks are read-only to the code: only relocated banks need a copy of their own per launch.
        Map<Integer, byte[]> copies = new HashMap<>();
        banks.forEach((index, bank) -> copies.put(index, patches.isEmpty() ? bank.data() : bank.data().clone()));
        for (Patch p : patches) {
            long address = sectionBase.get(p.symbolSection()) + p.symbolValue() + p.addend();
            byte[] target = copies.get(p.targetSection());
            if (target != null) {
                Relocations.apply(target, p.offset(), p.type(), address);
            } else {
                patchVariables(placed.get(p.targetSection()), p, address);
            }
        }
        return visible(entry, copies);
    }

    /**
     * Writes {@code address} into placed variables. ptxas relocates even a 32-bit variable with R_CUDA_G64; what
     * falls past the section's end is dropped here.
     */
    private static void patchVariables(byte[] memory, Patch p, long address) {
        byte[] word = new byte[8];
        Relocations.apply(word, 0, p.type(), address);
        int width = new Relocation(0, 0, p.type(), 0).typeName().endsWith("32") ? 4 : 8;
        int n = (int) Math.min(width, memory.length - p.offset());
        System.arraycopy(word, 0, memory, (int) p.offset(), n);
    }

    /** The banks {@code entry} sees, by bank number (module-wide ones overridden by its own), from {@code data} by section. */
    private Map<Integer, byte[]> visible(String entry, Map<Integer, byte[]> copies) {
        Map<Integer, byte[]> visible = new HashMap<>();
        for (String owner : new String[] {"", entry}) {
            banks.forEach((index, bank) -> {
                if (bank.owner().equals(owner)) {
                    visible.put(bank.number(), copies.get(index));
                }
            });
        }
        return visible;
    }

    /** Static shared-memory bytes per kernel ({@code .nv.shared.<kernel>} sizes). */
    /**
     * Each kernel's compile-time cluster shape: the {@code CTA_PER_CLUSTER} record of its {@code .nv.info.<kernel>}
     * section ({@code .reqnctapercluster}, {@code __cluster_dims__}).
     */
    static Map<String, Dim3> clusterShapes(Cubin cubin) {
        Map<String, Dim3> shapes = new HashMap<>();
        for (Section s : cubin.sections()) {
            if (!s.name().startsWith(".nv.info.")) {
                continue;
            }
            for (Attribute a : NvInfo.decode(s.data(), s.name())) {
                byte[] p = a.payload();
                if (a.name().equals("CTA_PER_CLUSTER") && p.length == 12) {
                    java.nio.ByteBuffer b = java.nio.ByteBuffer.wrap(p).order(java.nio.ByteOrder.LITTLE_ENDIAN);
                    shapes.put(s.name().substring(".nv.info.".length()), new Dim3(b.getInt(), b.getInt(), b.getInt()));
                }
            }
        }
        return shapes;
    }

    static Map<String, Integer> staticShared(Cubin cubin) {
        Map<String, Integer> shared = new HashMap<>();
        for (Section s : cubin.sections()) {
            if (s.name().startsWith(".nv.shared.")) {
                shared.put(s.name().substring(".nv.shared.".length()), (int) s.size());
            }
        }
        return shared;
    }
}
