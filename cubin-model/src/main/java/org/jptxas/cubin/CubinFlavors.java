package org.jptxas.cubin;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jptxas.tables.TableLoader;

/** The cubin flavours of {@code tables/cubin/flavors.json}, by name and by SM. Immutable. */
public final class CubinFlavors {
    /** JSON shape of the table. */
    public record Data(String note, List<CubinFlavor> flavors) {
        public Data {
            flavors = List.copyOf(flavors);
        }
    }

    private final Map<String, CubinFlavor> byName = new HashMap<>();
    private final Map<Integer, CubinFlavor> bySm = new HashMap<>();

    private CubinFlavors(Data data) {
        for (CubinFlavor f : data.flavors()) {
            if (byName.put(f.name(), f) != null) {
                throw new IllegalStateException("cubin flavour " + f.name() + " listed twice");
            }
            for (int sm : f.sms()) {
                if (bySm.put(sm, f) != null) {
                    throw new IllegalStateException("sm_" + sm + " is in two cubin flavours");
                }
            }
        }
    }

    private static final class Holder {
        static final CubinFlavors INSTANCE = new CubinFlavors(TableLoader.load("cubin/flavors.json", Data.class));
    }

    /** The flavour called {@code name} ({@code ampere}, {@code hopper}, ...). */
    public static Optional<CubinFlavor> named(String name) {
        return Optional.ofNullable(Holder.INSTANCE.byName.get(name));
    }

    /** The flavour of the cubins of SM {@code sm} (as an ELF header records it). */
    public static CubinFlavor forSm(int sm) {
        CubinFlavor f = Holder.INSTANCE.bySm.get(sm);
        if (f == null) {
            throw new IllegalArgumentException("no cubin flavour lists sm_" + sm + " (tables/cubin/flavors.json)");
        }
        return f;
    }
}
