package org.jptxas.cubin;

import java.util.ArrayList;
import java.util.List;

/**
 * The {@code -v} resource report in ptxas's format, naming the tool that prints it:
 * <pre>
 * jptxas info    : 4 bytes gmem, 4 bytes cmem[3]
 * jptxas info    : Compiling entry function 'axpy' for 'sm_75'
 * jptxas info    : Function properties for axpy
 *     0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
 * jptxas info    : Used 24 registers, used 2 barriers, 256 bytes smem, 368 bytes cmem[0]
 * </pre>
 * ptxas's "Compile time" lines are left out so that the same input always gives the same output.
 */
public final class ResourceReport {
    private ResourceReport() {}

    /** Module-wide resources: global memory bytes and module-level constant banks. */
    public record ModuleUsage(long gmemBytes, List<long[]> constantBanks) {}

    /**
     * One function's line items; {@code constantBanks} holds {bank, bytes} pairs printed as {@code cmem[bank]};
     * {@code callees} are the called functions compiled into a kernel, reported after it.
     */
    public record FunctionUsage(String name, boolean entry, long stackFrame, long spillStores, long spillLoads,
                                int registers, int barriers, long sharedBytes, List<long[]> constantBanks,
                                List<FunctionUsage> callees, Extras extras) {
        public FunctionUsage(String name, boolean entry, long stackFrame, long spillStores, long spillLoads,
                             int registers, int barriers, long sharedBytes, List<long[]> constantBanks) {
            this(name, entry, stackFrame, spillStores, spillLoads, registers, barriers, sharedBytes, constantBanks, List.of());
        }

        public FunctionUsage(String name, boolean entry, long stackFrame, long spillStores, long spillLoads,
                             int registers, int barriers, long sharedBytes, List<long[]> constantBanks,
                             List<FunctionUsage> callees) {
            this(name, entry, stackFrame, spillStores, spillLoads, registers, barriers, sharedBytes, constantBanks,
                    callees, Extras.NONE);
        }
    }

    /**
     * The rarer items of a kernel's "Used" line: the cumulative stack size (the kernel's MIN_STACK_SIZE, printed
     * when not 0), the number of textures it binds (printed below sm_90), and for code compiled without the ABI
     * ({@code abiless}: no "Function properties" lines) its local memory bytes ("N bytes lmem").
     */
    public record Extras(long cumulativeStack, int textures, boolean abiless, long localBytes) {
        public static final Extras NONE = new Extras(0, 0, false, 0);
    }

    /**
     * The functions whose "Function properties" lines the report prints, in its order: each function, then the
     * callees compiled into it (none for code compiled without the ABI).
     */
    public static List<FunctionUsage> propertiesOrder(List<FunctionUsage> functions) {
        List<FunctionUsage> out = new ArrayList<>();
        for (FunctionUsage f : functions) {
            if (!f.extras().abiless()) {
                out.add(f);
                out.addAll(f.callees());
            }
        }
        return out;
    }

    /** The report lines (each ending in a newline) for {@code tool} (e.g. "jptxas") and target {@code arch}. */
    public static String format(String tool, String arch, ModuleUsage module, List<FunctionUsage> functions) {
        StringBuilder out = new StringBuilder();
        List<String> moduleItems = new ArrayList<>();
        moduleItems.add(module.gmemBytes() + " bytes gmem");
        for (long[] bank : module.constantBanks()) {
            moduleItems.add(bank[1] + " bytes cmem[" + bank[0] + "]");
        }
        out.append(tool).append(" info    : ").append(String.join(", ", moduleItems)).append('\n');
        for (FunctionUsage f : functions) {
            Extras x = f.extras();
            if (f.entry()) {
                out.append(tool).append(" info    : Compiling entry function '").append(f.name()).append("' for '")
                        .append(arch).append("'\n");
            }
            if (!x.abiless()) {
                out.append(tool).append(" info    : Function properties for ").append(f.name()).append('\n');
                out.append("    ").append(f.stackFrame()).append(" bytes stack frame, ").append(f.spillStores())
                        .append(" bytes spill stores, ").append(f.spillLoads()).append(" bytes spill loads\n");
            }
            if (f.entry()) {
                out.append(tool).append(" info    : Used ").append(f.registers()).append(" registers, used ")
                        .append(f.barriers()).append(" barriers");
                if (x.cumulativeStack() > 0) {
                    out.append(", ").append(x.cumulativeStack()).append(" bytes cumulative stack size");
                }
                if (f.sharedBytes() > 0) {
                    out.append(", ").append(f.sharedBytes()).append(" bytes smem");
                }
                for (long[] bank : f.constantBanks()) {
                    out.append(", ").append(bank[1]).append(" bytes cmem[").append(bank[0]).append(']');
                }
                if (x.localBytes() > 0) {
                    out.append(", ").append(x.localBytes()).append(" bytes lmem");
                }
                if (x.textures() > 0) {
                    out.append(", ").append(x.textures()).append(" textures");
                }
                out.append('\n');
            }
            for (FunctionUsage c : x.abiless() ? List.<FunctionUsage>of() : f.callees()) {
                out.append(tool).append(" info    : Function properties for ").append(c.name()).append('\n');
                out.append("    ").append(c.stackFrame()).append(" bytes stack frame, ").append(c.spillStores())
                        .append(" bytes spill stores, ").append(c.spillLoads()).append(" bytes spill loads\n");
            }
        }
        return out.toString();
    }

    /**
     * The report for a cubin, from what it records: register counts, frame sizes, barriers, shared and constant
     * bytes. Spill sizes are not recorded in a cubin; code generation passes them through {@link #format} directly.
     * Entry functions are listed first in symbol order, as ptxas compiles them.
     */
    public static String format(String tool, Cubin cubin) {
        int sm = cubin.sm();
        String arch = "sm_" + sm;
        CubinFlavor flavor = CubinFlavors.forSm(sm);
        boolean hopper = flavor.hopperLayout();
        long gmem = cubin.section(".nv.global").map(Section::size).orElse(0L)
                + cubin.section(".nv.global.init").map(Section::size).orElse(0L);
        List<long[]> moduleBanks = new ArrayList<>();
        // ptxas 13 reports constant banks only below sm_90 (its Hopper layout).
        for (Section s : hopper ? List.<Section>of() : cubin.sections()) {
            String n = s.name();
            if (n.matches("\\.nv\\.constant\\d+")) {
                moduleBanks.add(new long[] {Long.parseLong(n.substring(".nv.constant".length())), s.size()});
            }
        }
        // Code compiled without the ABI (e.g. PTX whose functions take .reg parameters): EI_ABIVERSION 2 below
        // sm_90. From sm_90 on the header does not say; a .nv.local.<f> section (locals outside any stack frame)
        // still does, but a function without locals compiled without the ABI cannot be told from the cubin (code
        // generation, which knows, passes Extras through format directly).
        boolean abiless = cubin.header().abiVersion() == 2
                || hopper && cubin.sections().stream().anyMatch(s -> s.name().startsWith(".nv.local."));
        List<FunctionUsage> functions = new ArrayList<>();
        for (FunctionFacts f : CubinFacts.functions(cubin)) {
            List<long[]> banks = new ArrayList<>();
            for (Section s : cubin.sections()) {
                String n = s.name();
                if (n.startsWith(".nv.constant") && n.endsWith("." + f.name())) {
                    String bank = n.substring(".nv.constant".length(), n.length() - f.name().length() - 1);
                    if (bank.matches("\\d+") && !hopper) {
                        banks.add(new long[] {Long.parseLong(bank), s.size()});
                    }
                }
            }
            banks.sort(java.util.Comparator.comparingLong(b -> b[0]));
            // .nv.shared.<f> also holds the bytes the system reserves (1 KiB from sm_90 on), which ptxas does not report.
            long shared = Math.max(0, f.sharedBytes() - flavor.reservedShared());
            List<FunctionUsage> callees = new ArrayList<>();
            for (FunctionFacts.InnerFunction in : f.inner()) {
                // ptxas names a kernel's copy of callee g "$kernel$g" and reports it as g; its own helper routines
                // ("$__internal_N_$...") are not reported.
                String prefix = "$" + f.name() + "$";
                if (!in.name().startsWith(prefix)) {
                    continue;
                }
                String name = in.name().substring(prefix.length());
                callees.add(new FunctionUsage(name, false, in.frameSize(), 0, 0, 0, 0, 0, List.of()));
            }
            long local = cubin.section(".nv.local." + f.name()).map(Section::size).orElse(0L);
            Extras extras = new Extras(f.minStackSize(), hopper ? 0 : textures(cubin, f.name()), abiless, local);
            functions.add(new FunctionUsage(f.name(), f.entry(), f.frameSize(), 0, 0, f.registers(), f.barriers(),
                    shared, banks, callees, extras));
        }
        return format(tool, arch, new ModuleUsage(gmem, moduleBanks), functions);
    }

    /** Texture references a kernel binds: distinct texture symbols its constant bank 0 slots are relocated to. */
    private static int textures(Cubin cubin, String function) {
        List<Symbol> symbols = cubin.symbols();
        java.util.Set<Integer> seen = new java.util.HashSet<>();
        for (Section s : cubin.sections()) {
            if ((s.type() == SectionType.REL || s.type() == SectionType.RELA)
                    && cubin.section(s.info()).name().equals(".nv.constant0." + function)) {
                for (Relocation r : Relocations.decode(s)) {
                    if (r.symbol() < symbols.size() && symbols.get(r.symbol()).symbolType() == STT_CUDA_TEXTURE) {
                        seen.add(r.symbol());
                    }
                }
            }
        }
        return seen.size();
    }

    /** Symbol type of a texture reference. */
    static final int STT_CUDA_TEXTURE = 10;
}
