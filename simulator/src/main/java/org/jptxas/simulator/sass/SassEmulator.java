package org.jptxas.simulator.sass;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.jptxas.simulator.exec.ExecutionLimits;
import org.jptxas.simulator.exec.KernelExecutor;
import org.jptxas.simulator.exec.Launch;
import org.jptxas.simulator.exec.LaunchException;
import org.jptxas.simulator.exec.LaunchResult;

/**
 * The SASS emulator: runs a cubin's kernel instruction by instruction with Volta+ per-thread program counters
 * (threads at the same address execute together; divergent groups run lowest address first). Instructions it does
 * not implement stop the run with their name; it never guesses a value.
 */
public final class SassEmulator implements KernelExecutor {
    private final String sm;
    private final SassListing listing;
    private final Map<String, Integer> staticShared;
    /** Constant banks other than 0, per kernel ({@code .nv.constantN.<kernel>}) or module-wide ({@code .nv.constantN}). */
    private final Map<String, Map<Integer, byte[]>> constantBanks;
    /** Opcode classes (mnemonic with modifiers) seen in the program and executed by launches, for coverage reports. */
    private final Set<String> executed = new TreeSet<>();
    /** Set when the cubin needs a loader step the emulator lacks; launches then stop by name. */
    private String unsupportedLoad;

    /**
     * @param sm the target ({@code sm_90}) the cubin is for
     * @param staticShared static shared-memory bytes per kernel ({@code .nv.shared.<kernel>} sizes)
     */
    public SassEmulator(String sm, SassListing listing, Map<String, Integer> staticShared) {
        this(sm, listing, staticShared, Map.of());
    }

    public SassEmulator(String sm, SassListing listing, Map<String, Integer> staticShared,
                        Map<String, Map<Integer, byte[]>> constantBanks) {
        this.sm = sm;
        this.listing = listing;
        this.staticShared = Map.copyOf(staticShared);
        this.constantBanks = Map.copyOf(constantBanks);
    }

    /**
     * Loads a cubin: its kernels' code as listed by {@code listing} and their static shared memory from the
     * {@code .nv.shared.<kernel>} sections.
     */
    public static SassEmulator fromCubin(String sm, byte[] cubin, SassListing listing) {
        org.jptxas.isel.cubin.Cubin c = org.jptxas.isel.cubin.Cubin.read(cubin);
        java.util.Map<String, Integer> shared = new java.util.HashMap<>();
        java.util.Map<String, Map<Integer, byte[]>> banks = new java.util.HashMap<>();
        java.util.regex.Pattern cb = java.util.regex.Pattern.compile("\\.nv\\.constant(\\d+)(?:\\.(.+))?");
        for (org.jptxas.isel.cubin.Section s : c.sections()) {
            if (s.name().startsWith(".nv.shared.")) {
                shared.put(s.name().substring(".nv.shared.".length()), (int) s.size());
            }
            java.util.regex.Matcher m = cb.matcher(s.name());
            if (m.matches() && !m.group(1).equals("0")) {
                String owner = m.group(2) == null ? "" : m.group(2);
                byte[] data = s.type() == 8 ? new byte[(int) s.size()] : s.data(); // SHT_NOBITS: zeros
                banks.computeIfAbsent(owner, k -> new java.util.HashMap<>()).put(Integer.parseInt(m.group(1)), data);
            }
        }
        SassEmulator e = new SassEmulator(sm, listing, shared, banks);
        for (org.jptxas.isel.cubin.Section s : c.sections()) {
            String n = s.name();
            // Module variables live in .nv.global(.init); their addresses reach the code through relocated constant
            // banks, which this loader does not apply yet. (sm_90's .rela.text shared-window relocations are fine:
            // the emulator places shared memory where they point.)
            if (n.startsWith(".nv.global") || n.startsWith(".rel.nv.constant") || n.startsWith(".rela.nv.constant")) {
                e.unsupportedLoad = "loading a cubin with module variables (" + n + ")";
            }
        }
        return e;
    }

    @Override
    public String name() {
        return "SASS emulator (" + sm + ")";
    }

    @Override
    public List<String> entries() {
        return List.copyOf(listing.functions().keySet());
    }

    /** Every instruction class in the program's functions. */
    public Set<String> classesSeen() {
        Set<String> s = new TreeSet<>();
        listing.functions().values().forEach(ops -> ops.forEach(o -> s.add(SassMachine.className(o))));
        return s;
    }

    /** The instruction classes executed so far by this emulator's launches. */
    public synchronized Set<String> classesExecuted() {
        return new TreeSet<>(executed);
    }

    @Override
    public LaunchResult execute(Launch launch, ExecutionLimits limits) throws LaunchException {
        List<SassOp> code = listing.functions().get(launch.entry());
        if (code == null) {
            throw new LaunchException("no kernel '" + launch.entry() + "' in the cubin (kernels: "
                    + String.join(", ", entries()) + ")");
        }
        if (unsupportedLoad != null) {
            return LaunchResult.faulted(name(), new org.jptxas.simulator.exec.Fault.Unimplemented(unsupportedLoad,
                    "load of " + launch.entry()), 0, 0);
        }
        Map<Integer, byte[]> banks = new java.util.HashMap<>(constantBanks.getOrDefault("", Map.of()));
        banks.putAll(constantBanks.getOrDefault(launch.entry(), Map.of()));
        SassMachine m = new SassMachine(name(), code, launch, limits, staticShared.getOrDefault(launch.entry(), 0), banks);
        LaunchResult r = m.run();
        synchronized (this) {
            executed.addAll(m.executedClasses());
        }
        return r;
    }
}
