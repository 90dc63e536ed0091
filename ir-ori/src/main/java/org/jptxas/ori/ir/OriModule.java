package org.jptxas.ori.ir;

import java.util.List;
import java.util.Objects;
import org.jptxas.ori.target.Target;

/**
 * A whole compilation unit in Ori form, as the front end hands it to a backend.
 *
 * @param sourceName the input file name, for diagnostics
 * @param globals      module-scope global and constant variables
 * @param declarations what the module declares that the object file records (target, function linkages and types)
 * @param lines        the PTX's source-line information, for the line tables ({@link SourceLines#NONE} when none)
 * @param dwarf        the DWARF sections the PTX carries, for a {@code -g} cubin ({@link DwarfSections#NONE} when none)
 */
public record OriModule(String sourceName, Target target, List<OriFunction> functions, List<GlobalVar> globals,
                        ModuleDeclarations declarations, SourceLines lines, DwarfSections dwarf) {
    public OriModule {
        Objects.requireNonNull(sourceName, "sourceName");
        Objects.requireNonNull(target, "target");
        functions = List.copyOf(functions);
        globals = List.copyOf(globals);
        Objects.requireNonNull(declarations, "declarations");
        Objects.requireNonNull(lines, "lines");
        Objects.requireNonNull(dwarf, "dwarf");
    }

    public OriModule(String sourceName, Target target, List<OriFunction> functions, List<GlobalVar> globals,
                     ModuleDeclarations declarations, SourceLines lines) {
        this(sourceName, target, functions, globals, declarations, lines, DwarfSections.NONE);
    }

    public OriModule(String sourceName, Target target, List<OriFunction> functions, List<GlobalVar> globals,
                     ModuleDeclarations declarations) {
        this(sourceName, target, functions, globals, declarations, SourceLines.NONE);
    }

    /** The same module with {@code replacement} as its line information. */
    public OriModule withLines(SourceLines replacement) {
        return new OriModule(sourceName, target, functions, globals, declarations, replacement, dwarf);
    }

    /** The same module with {@code replacement} as its DWARF sections. */
    public OriModule withDwarf(DwarfSections replacement) {
        return new OriModule(sourceName, target, functions, globals, declarations, lines, replacement);
    }

    public OriModule(String sourceName, Target target, List<OriFunction> functions, List<GlobalVar> globals) {
        this(sourceName, target, functions, globals, ModuleDeclarations.NONE);
    }

    /** The same module with {@code replacement} as its functions. */
    public OriModule withFunctions(List<OriFunction> replacement) {
        return new OriModule(sourceName, target, replacement, globals, declarations, lines, dwarf);
    }

    public OriModule(String sourceName, Target target, List<OriFunction> functions) {
        this(sourceName, target, functions, List.of());
    }
}
