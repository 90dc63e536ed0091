package org.jptxas.spi;

import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import org.jptxas.cubin.CubinFlavor;
import org.jptxas.cubin.CubinFlavors;
import org.jptxas.sass.SassIsa;
import org.jptxas.ori.target.Target;
import org.jptxas.ori.target.TargetFeature;
import org.jptxas.ori.target.TargetInfo;
import org.jptxas.ori.target.TargetProfile;
import org.jptxas.tables.TableException;
import org.jptxas.tables.TableSource;
import org.jptxas.tables.latency.LatencyTableData;
import org.jptxas.tables.latency.LatencyTables;
import org.jptxas.ori.target.BankWindow;
import org.jptxas.ori.target.DriverConstants;

/**
 * Everything shared code asks a backend about one of its targets, in the spirit of Mesa NAK's shader model: the
 * encoding, modifier, latency and matcher tables (read lazily through the backend's own jar), the scheduling
 * flavour, the ABI and layout facts, the cubin flavour and the named features. Built by
 * {@link BackendDescriptions} from the backend's {@code backend.json}. Immutable apart from the cache of objects
 * derived from the tables (an encoder, a latency model, a selector), which the stages that own those types fill
 * through {@link #derived}; thread-safe.
 */
public final class TargetDescription {
    private final String backend;
    private final TargetInfo info;
    private final TargetSpec spec;
    private final CodegenSpec codegen;
    private final DecodeTables decode;
    private final TargetProfile profile;
    private final CubinFlavor cubin;
    private final TableSource tables;
    private final Map<Object, Object> derived = new ConcurrentHashMap<>();

    TargetDescription(String backend, TargetSpec spec, CodegenSpec codegen, DecodeTables decode, TableSource tables) {
        this.backend = Objects.requireNonNull(backend, "backend");
        this.spec = spec;
        this.codegen = codegen;
        this.decode = codegen != null ? new DecodeTables(codegen.sass(), codegen.modifiers(), codegen.latency())
                : decode;
        this.tables = tables;
        Target t = Target.parse(spec.name())
                .orElseThrow(() -> new TableException(tables.path("backend.json"), spec.name(), "not a target name", null));
        this.info = new TargetInfo(t.name(), t.sm(), t.suffix(), backend, spec.architecture(), spec.ptxas13(),
                spec.ptxas125());
        this.cubin = CubinFlavors.named(spec.cubin()).orElseThrow(() -> new TableException(
                tables.path("backend.json"), spec.name() + ".cubin", "no cubin flavour '" + spec.cubin() + "'", null));
        this.profile = codegen == null ? null : profile(t, codegen);
    }

    private TargetProfile profile(Target t, CodegenSpec codegen) {
        EnumSet<TargetFeature> features = EnumSet.noneOf(TargetFeature.class);
        for (String f : codegen.features()) {
            try {
                features.add(TargetFeature.valueOf(f));
            } catch (IllegalArgumentException e) {
                throw new TableException(tables.path("backend.json"), spec.name() + ".features",
                        "unknown feature '" + f + "' (known: " + List.of(TargetFeature.values()) + ")", e);
            }
        }
        CodegenSpec.Abi abi = codegen.abi();
        // "" where the backend does not know the window: generic addresses through it are refused by name
        BankWindow constWindow = abi.constWindow().isEmpty() ? null : new BankWindow(hex(abi.constWindow()), 0);
        BankWindow paramWindow = abi.paramWindow().isEmpty() ? null
                : new BankWindow(hex(abi.paramWindow()), hex(abi.paramWindowPointee()));
        String layout = abi.driver();
        DriverConstants driver = DriverConstants.named(layout);
        if (driver == null) {
            throw new TableException(tables.path("backend.json"), spec.name() + ".abi.driver",
                    "no driver constant layout '" + layout + "' (known: classic, blackwell)", null);
        }
        return new TargetProfile(t, cubin.parameterBase(), hex(abi.memoryDescriptor()), cubin.reservedShared(),
                abi.trailingNops(), abi.callRelocation(), features, constWindow, paramWindow, driver);
    }

    private int hex(String text) {
        try {
            return Integer.decode(text);
        } catch (NumberFormatException e) {
            throw new TableException(tables.path("backend.json"), spec.name() + ".abi", "not a number: " + text, e);
        }
    }

    /** The id of the backend that describes this target. */
    public String backend() {
        return backend;
    }

    public Target target() {
        return info.target();
    }

    public TargetInfo info() {
        return info;
    }

    /** The facts the front end, the optimizer and the code generator read (targets with code generation). */
    public TargetProfile profile() {
        codegen();
        return profile;
    }

    public boolean has(TargetFeature feature) {
        return profile().has(feature);
    }

    /** Whether the backend generates code for this target; otherwise it is listed and refused by name. */
    public boolean codeGeneration() {
        return codegen != null;
    }

    /**
     * Whether the backend has this target's SASS tables (every target with code generation, and targets it only
     * decodes): the disassembler, the dumper and the emulator read the target's code through them.
     */
    public boolean hasTables() {
        return decode != null;
    }

    /** How the target's cubins are laid out. */
    public CubinFlavor cubin() {
        return cubin;
    }

    /** The target's entry as the backend's JSON gives it. */
    public TargetSpec spec() {
        return spec;
    }

    /** The code-generation tables and scheduling flavour; only for targets with {@link #codeGeneration()}. */
    public CodegenSpec codegen() {
        if (codegen == null) {
            throw new IllegalStateException("backend " + backend + " does not generate code for " + info.name());
        }
        return codegen;
    }

    /** The SASS and latency tables; only for targets with {@link #hasTables()}. */
    public DecodeTables decodeTables() {
        if (decode == null) {
            throw new IllegalStateException("backend " + backend + " has no SASS tables for " + info.name());
        }
        return decode;
    }

    /** Where this target's tables are read from: the backend's own jar (and the shared tables by absolute path). */
    public TableSource tables() {
        return tables;
    }

    /** The SASS encoder and decoder of this target (its table's forms and modifier enums), built once. */
    public SassIsa isa() {
        return derived(SassIsa.class, d -> {
            DecodeTables c = d.decodeTables();
            return SassIsa.load(d.tables(), c.sass().base(), c.sass().overlay(), c.modifiers().base(),
                    c.modifiers().overlay());
        });
    }

    /** The target's latency table, its {@code extends} chain resolved (the scheduler builds its model from it). */
    public LatencyTableData latencyTable() {
        return derived(LatencyTableData.class, d -> LatencyTables.resolve(d.tables(), d.decodeTables().latency()));
    }

    /**
     * An object derived from this description's tables, made once by {@code make} and kept with the description
     * (the SASS encoder, the latency model, the instruction selector): no global caches keyed by target names, so
     * two backends serving look-alike targets never share one.
     */
    @SuppressWarnings("unchecked")
    public <T> T derived(Class<T> type, Function<TargetDescription, T> make) {
        Object o = derived.get(type);
        if (o == null) {
            // computeIfAbsent would hold the map's lock while tables load, and loading may derive other objects
            Object made = make.apply(this);
            o = derived.putIfAbsent(type, made);
            if (o == null) {
                o = made;
            }
        }
        return (T) o;
    }

    @Override
    public String toString() {
        return info.name() + " (" + backend + ")";
    }
}
