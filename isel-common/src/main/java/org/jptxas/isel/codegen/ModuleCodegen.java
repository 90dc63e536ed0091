package org.jptxas.isel.codegen;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.jptxas.cubin.CubinBuilder;
import org.jptxas.cubin.ResourceReport;
import org.jptxas.spi.CompileOptions;
import org.jptxas.spi.CompileRequest;
import org.jptxas.spi.CompiledModule;
import org.jptxas.ori.diag.CompilationException;
import org.jptxas.ori.diag.Diagnostic;
import org.jptxas.ori.ir.GlobalVar;
import org.jptxas.ori.ir.OriFunction;
import org.jptxas.ori.ir.OriModule;
import org.jptxas.ori.target.Target;
import org.jptxas.ori.target.TargetProfile;
import org.jptxas.spi.IrObserver;

/**
 * Compiles a whole Ori module to a cubin with a backend's {@link CodegenPipeline}: every function with a body
 * through {@link FunctionCodegen}, then {@link CubinBuilder} with the module's globals and the code relocations.
 * Thread-safe: it holds only its configuration.
 */
public final class ModuleCodegen {
    private final CodegenPipeline pipeline;

    public ModuleCodegen(CodegenPipeline pipeline) {
        this.pipeline = Objects.requireNonNull(pipeline, "pipeline");
    }

    /**
     * What a module compiles to: the cubin, its SASS listing, the {@code -v} report lines, the warnings, and the
     * report's resources as data.
     */
    public record Result(byte[] cubin, List<CompiledFunction> functions, String sass, String resourceReport,
                         List<Diagnostic> messages, List<ResourceReport.FunctionUsage> usage,
                         Optional<ResourceReport.ModuleUsage> moduleUsage) {
        public Result {
            cubin = cubin.clone();
            functions = List.copyOf(functions);
            messages = List.copyOf(messages);
            usage = List.copyOf(usage);
            Objects.requireNonNull(moduleUsage, "moduleUsage");
        }

        public Result(byte[] cubin, List<CompiledFunction> functions, String sass, String resourceReport,
                      List<Diagnostic> messages) {
            this(cubin, functions, sass, resourceReport, messages, List.of(), Optional.empty());
        }

        @Override
        public byte[] cubin() {
            return cubin.clone();
        }
    }

    /** The backend entry point: compile, and with {@code -v} add the resource report as info lines. */
    public CompiledModule compile(CompileRequest request) throws CompilationException {
        Result r = compile(request.module(), request.target(), request.options(), request.observer(), false);
        return new CompiledModule(r.cubin(), r.messages(), r.sass(), request.options().verbose() ? r.resourceReport() : "",
                r.usage(), r.moduleUsage());
    }

    /**
     * Compiles {@code module} for {@code target}.
     *
     * @param cuda12Abi write the CUDA 12 object format (ABI v7), which nvlink 12.5 links
     */
    public Result compile(OriModule module, Target target, CompileOptions options, IrObserver observer,
                          boolean cuda12Abi) throws CompilationException {
        List<Diagnostic> messages = new ArrayList<>();
        AddressTable addresses = new AddressTable();
        java.util.Map<String, List<OriFunction>> subroutines = new java.util.LinkedHashMap<>();
        for (OriFunction f : module.functions()) {
            String owner = CallFrames.ownerOf(f.name());
            if (owner != null) {
                subroutines.computeIfAbsent(owner, o -> new ArrayList<>()).add(f);
            }
        }
        // each function reports into a list of its own, joined in module order: the messages a serial compilation gives
        List<FunctionCodegen.Unit> units = new ArrayList<>();
        List<List<Diagnostic>> unitMessages = new ArrayList<>();
        for (OriFunction f : module.functions()) {
            if (f.body().blocks().isEmpty() || CallFrames.ownerOf(f.name()) != null) {
                continue;
            }
            List<Diagnostic> own = new ArrayList<>();
            List<OriFunction> subs = subroutines.getOrDefault(f.name(), List.of());
            List<CodegenContext> contexts = new ArrayList<>();
            for (OriFunction g : subs) {
                contexts.add(new CodegenContext(module, g, pipeline.description(), options, own, observer, addresses));
            }
            units.add(new FunctionCodegen.Unit(f,
                    new CodegenContext(module, f, pipeline.description(), options, own, observer, addresses),
                    subs, contexts));
            unitMessages.add(own);
        }
        List<CompiledFunction> compiled = new UnitCompilation(new FunctionCodegen(pipeline, observer), units,
                observer == IrObserver.NONE ? options.splitCompile() : 1).run();
        unitMessages.forEach(messages::addAll);
        CubinBuilder builder = new CubinBuilder(target.sm(), pipeline.description().cubin(), options.relocatable())
                .options(recordedOptions(target, options));
        if (cuda12Abi) {
            builder.abiVersion7();
        }
        for (OriFunction f : module.functions()) {
            if (f.entry() && f.attrs().sharedAlignment() > 0) {
                builder.sharedAlignment(f.name(), f.attrs().sharedAlignment());
            }
        }
        boolean abiless = module.declarations().abiDisabled();
        if (abiless) {
            builder.withoutAbi();
        }
        long gmem = 0;
        long cmem3 = 0;
        for (GlobalVar g : module.globals()) {
            if (g.space() == GlobalVar.Space.GLOBAL) {
                builder.global(new CubinBuilder.GlobalVariable(g.name(), g.size(), g.alignment(), g.init(), g.visible()));
                gmem += g.size();
            } else if (g.space() == GlobalVar.Space.TEXTURE) {
                builder.textureReference(g.name());
            } else {
                cmem3 = Math.max(cmem3, g.offset() + g.size());
            }
        }
        if (cmem3 > 0) {
            byte[] bank3 = new byte[(int) cmem3];
            List<CubinBuilder.ConstantVariable> vars = new ArrayList<>();
            for (GlobalVar g : module.globals()) {
                if (g.space() == GlobalVar.Space.CONSTANT) {
                    byte[] init = g.init();
                    if (init != null) {
                        System.arraycopy(init, 0, bank3, (int) g.offset(), init.length);
                    }
                    vars.add(new CubinBuilder.ConstantVariable(g.name(), g.offset(), g.size(), g.visible()));
                }
            }
            builder.constantBank3(bank3, vars);
        }
        for (GlobalVar g : module.globals()) {
            for (GlobalVar.Address a : g.addresses()) {
                builder.dataAddress(new CubinBuilder.DataAddress(g.name(), g.space() == GlobalVar.Space.CONSTANT,
                        a.offset(), a.symbol(), a.addend()));
            }
        }
        builder.addressTable(addresses.slots());
        int slotBase = pipeline.description().profile().paramBase();
        for (OriFunction f : module.functions()) {
            List<String> slots = f.attrs().textureSlots();
            for (int k = 0; k < slots.size(); k++) {
                builder.textureSlot(new CubinBuilder.TextureSlot(f.name(),
                        slotBase + (f.attrs().paramBytes() + 3) / 4 * 4 + 4 * k, slots.get(k)));
            }
        }
        for (CompiledFunction c : compiled) {
            if (options.relocatable() && !c.facts().entry()) {
                // -c keeps only exported device functions as functions of their own: other objects call them
                builder.functionBinding(c.facts().name(), org.jptxas.cubin.FunctionFacts.Binding.GLOBAL);
            }
            builder.add(c.facts());
            builder.constantBank2(c.facts().name(), c.jumpTables());
            c.relocations().forEach(builder::relocation);
        }
        ObjectDeclarations.apply(module.declarations(), compiled, options.relocatable(), builder);
        builder.deviceDebug(options.debug() && !options.suppressDebugInfo());
        if (module.lines().present() && options.lineTables(module.lines().hasLoc())) {
            builder.lineTables(LineTableRows.of(module.lines(), compiled, options.relocatable(),
                    !options.debug() && options.optLevel() > 0));
        }
        if (options.debug() && !options.suppressDebugInfo()) {
            builder.registerMaps(compiled.stream().filter(c -> c.registerMap() != null)
                    .map(CompiledFunction::registerMap).toList());
        }
        if (options.debug() && !options.suppressDebugInfo() && module.dwarf().present()) {
            builder.dwarf(DwarfPlacement.of(module, compiled, pipeline.description().profile().paramBase(),
                    options.relocatable()));
        }
        byte[] cubin = builder.build().write();
        String sass = options.sassText()
                ? SassTextListing.render(compiled, ObjectDeclarations.hiddenEntries(module.declarations())) : "";
        List<ResourceReport.FunctionUsage> usage = new ArrayList<>();
        TargetProfile profile = pipeline.description().profile();
        int paramBase = profile.paramBase();
        java.util.Map<String, Integer> textureSlots = new java.util.HashMap<>();
        module.functions().forEach(f -> textureSlots.put(f.name(), f.attrs().textureSlots().size()));
        for (CompiledFunction c : compiled) {
            var f = c.facts();
            List<long[]> banks = new ArrayList<>();
            int slots = textureSlots.getOrDefault(f.name(), 0);
            boolean hopper = pipeline.description().cubin().hopperLayout();
            if (!hopper && f.entry()) {
                // bank 0 holds the parameters, then the texture header slots
                banks.add(new long[] {0, slots == 0 ? paramBase + f.paramBytes()
                        : paramBase + (f.paramBytes() + 3) / 4 * 4 + 4L * slots});
            }
            long shared = f.sharedBytes() > 0 ? f.sharedBytes() - profile.reservedShared() : f.sharedBytes();
            usage.add(new ResourceReport.FunctionUsage(f.name(), f.entry(), f.frameSize(), c.spillStores(), c.spillLoads(),
                    f.registers(), f.barriers(), shared, banks, List.of(), abiless
                            ? new ResourceReport.Extras(0, 0, true, f.frameSize())
                            : slots > 0 && !hopper ? new ResourceReport.Extras(0, slots, false, 0)
                            : ResourceReport.Extras.NONE));
        }
        List<long[]> moduleBanks = cmem3 > 0 && !pipeline.description().cubin().hopperLayout()
                ? List.of(new long[] {3, cmem3}) : List.of();
        ResourceReport.ModuleUsage moduleUsage = new ResourceReport.ModuleUsage(gmem, moduleBanks);
        String report = ResourceReport.format("jptxas", target.name(), moduleUsage, usage);
        return new Result(cubin, compiled, sass, report, messages, usage, Optional.of(moduleUsage));
    }

    /**
     * The option string ptxas 13 records in {@code .note.nv.tkinfo}, in its order and spacing, for the options that
     * reach the code generator: {@code -warn-spills}, {@code -maxrregcount N}, {@code -suppress-debug-info},
     * {@code -lineinfo}, {@code -O N} (ptxas records an explicit level; here a level other than the default 3, and none for device debug
     * code, whose level 0 a {@code .target debug} implies unrecorded),
     * {@code -arch}, {@code -c}, {@code -fmad false}. Not recorded: {@code -v}, which the options do not tell apart
     * from the spill warnings' report, and {@code -g}, for which ptxas also records the input and output names.
     */
    static String recordedOptions(Target target, CompileOptions options) {
        StringBuilder b = new StringBuilder();
        if (options.warnOnSpills()) {
            b.append("-warn-spills  ");
        }
        options.maxRegCount().ifPresent(n -> b.append("-maxrregcount ").append(n).append(' '));
        if (options.suppressDebugInfo()) {
            b.append("-suppress-debug-info  ");
        }
        if (options.lineInfo()) {
            b.append("-lineinfo  ");
        }
        if (options.optLevel() != 3 && !options.debug()) {
            b.append("-O ").append(options.optLevel()).append(' ');
        }
        b.append("-arch ").append(target.name()).append(' ');
        if (options.relocatable()) {
            b.append("-c  ");
        }
        if (!options.fmad()) {
            b.append("-fmad false ");
        }
        return b.toString();
    }
}
