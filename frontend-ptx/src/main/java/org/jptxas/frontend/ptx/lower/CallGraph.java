package org.jptxas.frontend.ptx.lower;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jptxas.ori.ir.BasicBlock;
import org.jptxas.ori.ir.Instr;
import org.jptxas.ori.ir.OriFunction;
import org.jptxas.ori.ir.OriModule;

/** The direct-call graph of a lowered module (the call pseudo-instructions of {@link CallLowerer}). */
final class CallGraph {
    private final Map<String, List<String>> callees = new LinkedHashMap<>();
    /** Call instructions naming each function, over the whole module. */
    private final Map<String, Integer> sites = new HashMap<>();

    private CallGraph() {}

    static CallGraph of(OriModule module) {
        CallGraph g = new CallGraph();
        for (OriFunction f : module.functions()) {
            List<String> out = new ArrayList<>();
            for (BasicBlock b : f.body().blocks()) {
                for (Instr in : b.instrs()) {
                    if (ModuleInliner.isCall(in)) {
                        String name = ModuleInliner.callee(in);
                        g.sites.merge(name, 1, Integer::sum);
                        if (!out.contains(name)) {
                            out.add(name);
                        }
                    }
                }
            }
            g.callees.put(f.name(), out);
        }
        return g;
    }

    /** How many call instructions of the module name {@code function}. */
    int callSites(String function) {
        return sites.getOrDefault(function, 0);
    }

    /** The functions on a cycle (a strongly connected component with an edge inside it), by Tarjan's algorithm. */
    Set<String> recursive() {
        Set<String> result = new LinkedHashSet<>();
        Map<String, Integer> index = new HashMap<>();
        Map<String, Integer> low = new HashMap<>();
        List<String> stack = new ArrayList<>();
        int[] counter = {0};
        for (String f : callees.keySet()) {
            if (!index.containsKey(f)) {
                strongConnect(f, index, low, stack, counter, result);
            }
        }
        return result;
    }

    private void strongConnect(String v, Map<String, Integer> index, Map<String, Integer> low, List<String> stack,
            int[] counter, Set<String> result) {
        index.put(v, counter[0]);
        low.put(v, counter[0]++);
        stack.add(v);
        for (String w : callees.getOrDefault(v, List.of())) {
            if (!callees.containsKey(w)) {
                continue; // external: no body here
            }
            if (!index.containsKey(w)) {
                strongConnect(w, index, low, stack, counter, result);
                low.put(v, Math.min(low.get(v), low.get(w)));
            } else if (stack.contains(w)) {
                low.put(v, Math.min(low.get(v), index.get(w)));
            }
        }
        if (low.get(v).equals(index.get(v))) {
            List<String> component = new ArrayList<>();
            String w;
            do {
                w = stack.remove(stack.size() - 1);
                component.add(w);
            } while (!w.equals(v));
            if (component.size() > 1 || callees.get(v).contains(v)) {
                result.addAll(component);
            }
        }
    }
}
