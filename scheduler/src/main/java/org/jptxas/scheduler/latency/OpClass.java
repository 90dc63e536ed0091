package org.jptxas.scheduler.latency;

/**
 * One latency class of a {@link LatencyModel}, interned: {@code id} indexes the model's dense tables.
 *
 * @param readerGroup index of the reader group this class belongs to when it reads
 * @param pipe        index of its pipe
 * @param alsoPipes   indices of further pipes it occupies while it issues
 */
public record OpClass(int id, String name, int pipe, int readerGroup, boolean variable, boolean readsLate, boolean drainsWrites, boolean drainsOnExit, int maxLatency,
                      int war, int waw, int minStall, int yieldMaxStall, int issueCycles, int issueGap,
                      int[] scoreboardOrder, int[] alsoPipes) {
    @Override
    public String toString() {
        return name;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof OpClass c && c.id == id && c.name.equals(name);
    }

    @Override
    public int hashCode() {
        return id;
    }
}
