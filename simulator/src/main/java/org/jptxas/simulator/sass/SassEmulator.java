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
    /** Opcode classes (mnemonic with modifiers) seen in the program and executed by launches, for coverage reports. */
    private final Set<String> executed = new TreeSet<>();

    /**
     * @param sm the target ({@code sm_90}) the cubin is for
     * @param staticShared static shared-memory bytes per kernel ({@code .nv.shared.<kernel>} sizes)
     */
    public SassEmulator(String sm, SassListing listing, Map<String, Integer> staticShared) {
        this.sm = sm;
        this.listing = listing;
        this.staticShared = Map.copyOf(staticShared);
    }

    /**
     * Loads a cubin: its kernels' code as listed by {@code listing} and their static shared memory from the
     * {@code .nv.shared.<kernel>} sections.
     */
    public static SassEmulator fromCubin(String sm, byte[] cubin, SassListing listing) {
        org.jptxas.isel.cubin.Cubin c = org.jptxas.isel.cubin.Cubin.read(cubin);
        java.util.Map<String, Integer> shared = new java.util.HashMap<>();
        for (org.jptxas.isel.cubin.Section s : c.sections()) {
            if (s.name().startsWith(".nv.shared.")) {
                shared.put(s.name().substring(".nv.shared.".length()), (int) s.size());
            }
        }
        return new SassEmulator(sm, listing, shared);
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
        SassMachine m = new SassMachine(name(), code, launch, limits, staticShared.getOrDefault(launch.entry(), 0));
        LaunchResult r = m.run();
        synchronized (this) {
            executed.addAll(m.executedClasses());
        }
        return r;
    }
}
