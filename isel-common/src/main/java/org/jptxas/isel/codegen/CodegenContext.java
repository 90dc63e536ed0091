package org.jptxas.isel.codegen;

import java.util.List;
import java.util.Objects;
import java.util.OptionalInt;
import org.jptxas.spi.CompileOptions;
import org.jptxas.ori.diag.Diagnostic;
import org.jptxas.ori.ir.OriFunction;
import org.jptxas.ori.ir.OriModule;
import org.jptxas.spi.TargetDescription;
import org.jptxas.ori.target.Target;
import org.jptxas.ori.target.TargetFeature;
import org.jptxas.ori.target.TargetProfile;
import org.jptxas.spi.IrObserver;

/**
 * What every stage of one function's code generation may consult: the module, the target, the options, and a sink
 * for warnings. One per function compilation; not shared between threads.
 */
public final class CodegenContext {
    private final OriModule module;
    private final OriFunction function;
    private final TargetDescription description;
    private final CompileOptions options;
    private final List<Diagnostic> messages;
    private final IrObserver observer;
    private final AddressTable addressTable;

    public CodegenContext(OriModule module, OriFunction function, TargetDescription description,
                          CompileOptions options, List<Diagnostic> messages) {
        this(module, function, description, options, messages, IrObserver.NONE, new AddressTable());
    }

    public CodegenContext(OriModule module, OriFunction function, TargetDescription description,
                          CompileOptions options, List<Diagnostic> messages, IrObserver observer,
                          AddressTable addressTable) {
        this.observer = Objects.requireNonNull(observer, "observer");
        this.addressTable = Objects.requireNonNull(addressTable, "addressTable");
        this.module = Objects.requireNonNull(module, "module");
        this.function = Objects.requireNonNull(function, "function");
        this.description = Objects.requireNonNull(description, "description");
        this.options = Objects.requireNonNull(options, "options");
        this.messages = Objects.requireNonNull(messages, "messages");
    }

    public OriModule module() {
        return module;
    }

    public OriFunction function() {
        return function;
    }

    public Target target() {
        return description.target();
    }

    /** The target's description: its tables, ABI, features and cubin flavour. */
    public TargetDescription description() {
        return description;
    }

    /** The target's ABI facts and features. */
    public TargetProfile profile() {
        return description.profile();
    }

    public boolean has(TargetFeature feature) {
        return description.has(feature);
    }

    public CompileOptions options() {
        return options;
    }

    public String sourceName() {
        return module.sourceName();
    }

    /**
     * The most general-purpose registers the function may use, counting the two ptxas adds to the highest index:
     * {@code .maxnreg}, else {@code --maxrregcount}, else 255.
     */
    public int maxRegisters() {
        OptionalInt n = function.attrs().maxnreg();
        if (n.isPresent()) {
            return Math.min(255, n.getAsInt());
        }
        return Math.min(255, options.maxRegCount().orElse(255));
    }

    /** The module's constant-bank-4 address table ({@link AddressTable}). */
    public AddressTable addressTable() {
        return addressTable;
    }

    /** Who watches the Ori between passes. */
    public IrObserver observer() {
        return observer;
    }

    public void warn(int line, String message) {
        messages.add(Diagnostic.warning(module.sourceName(), line, message));
    }
}
