package org.jptxas.isel.select;

import org.jptxas.spi.TargetDescription;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.function.IntFunction;
import org.jptxas.ori.ir.Instr;
import org.jptxas.tables.isel.MatcherData;
import org.jptxas.tables.isel.MatcherTable;

/**
 * Instruction selection for one target, as ptxas's ISel hubs do it: for each instruction every matcher of the
 * backend's set is tried (a linear scan), and the highest-priority match whose emitted SASS form exists on the
 * target wins. Ties go to the matcher listed first. Immutable and thread-safe.
 */
public final class InstructionSelector {
    private final String target;
    private final SassTextPrinter printer;
    /** Highest priority first; stable, so table order breaks ties. */
    private final List<Matcher> matchers;

    /**
     * @param target  the target name ({@code sm_75}, {@code sm_86}, {@code sm_90a}, ...), which matchers may restrict to
     * @param tables  the matcher sets in order, e.g. {@code common.json}, {@code sm75.json}
     */
    public InstructionSelector(String target, SassTextPrinter printer, List<MatcherTable> tables, List<String> names) {
        this.target = Objects.requireNonNull(target, "target");
        this.printer = Objects.requireNonNull(printer, "printer");
        List<Matcher> all = new ArrayList<>();
        for (int t = 0; t < tables.size(); t++) {
            for (MatcherData d : tables.get(t).matchers()) {
                all.add(new Matcher(d, names.get(t)));
            }
        }
        all.sort(Comparator.comparingInt(Matcher::priority).reversed());
        this.matchers = List.copyOf(all);
    }

    /**
     * The selector of a described target: its matcher sets (read through the backend's jar) over its encoding table.
     * Built once per description.
     */
    public static InstructionSelector of(TargetDescription description) {
        return description.derived(InstructionSelector.class, d -> {
            List<MatcherTable> tables = new ArrayList<>();
            List<String> names = new ArrayList<>();
            for (String path : d.codegen().matchers()) {
                tables.add(MatcherTable.load(d.tables(), path));
                names.add(path.substring(path.lastIndexOf('/') + 1));
            }
            return new InstructionSelector(d.target().name(), new SassTextPrinter(d.isa()), tables, names);
        });
    }

    public String target() {
        return target;
    }

    public SassTextPrinter printer() {
        return printer;
    }

    /** Every matcher of the set, highest priority first. */
    public List<Matcher> matchers() {
        return matchers;
    }

    /** The matchers that take {@code ins}, highest priority first. */
    public List<Matcher> candidates(Instr ins) {
        List<Matcher> out = new ArrayList<>(2);
        for (Matcher m : matchers) {
            if (m.matches(ins, target)) {
                out.add(m);
            }
        }
        return out;
    }

    /** The winning matcher's pattern alone (no encodability check), or null. */
    public Matcher best(Instr ins) {
        for (Matcher m : matchers) {
            if (m.matches(ins, target)) {
                return m;
            }
        }
        return null;
    }

    /** The result of selecting one instruction. */
    public record Selection(Matcher matcher, SelectedInstr instr, SassLine line) {}

    /**
     * Selects and prints {@code ins} (physical registers): the highest-priority matcher whose emitted instruction
     * the target encodes.
     *
     * @throws SelectionException naming the instruction and its PTX line when no matcher yields an encodable form
     */
    public Selection select(Instr ins, IntFunction<String> blockLabels) {
        StringBuilder tried = new StringBuilder();
        for (Matcher m : matchers) {
            if (!m.matches(ins, target)) {
                continue;
            }
            try {
                SelectedInstr s = m.apply(ins);
                return new Selection(m, s, printer.print(s, blockLabels));
            } catch (SelectionException e) {
                tried.append(tried.length() == 0 ? "" : "; ").append(m.name()).append(": ").append(e.getMessage());
            }
        }
        throw new SelectionException(ins.line(), "no " + target + " matcher selects '" + ins + "'"
                + (ins.line() > 0 ? " (PTX line " + ins.line() + ")" : "")
                + (tried.length() == 0 ? ": no matcher applies" : " — " + tried));
    }

    /** {@link #select} and keep the text. */
    public SassLine emit(Instr ins, IntFunction<String> blockLabels) {
        return select(ins, blockLabels).line();
    }

    /** Whether {@code ins} (physical registers) selects to an encodable form. */
    public boolean encodable(Instr ins) {
        for (Matcher m : matchers) {
            if (m.matches(ins, target)) {
                try {
                    printer.print(m.apply(ins), b -> ".L_x_0");
                    return true;
                } catch (SelectionException e) {
                    // try the next matcher
                }
            }
        }
        return false;
    }
}
