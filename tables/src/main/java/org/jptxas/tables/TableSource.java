package org.jptxas.tables;

import java.io.IOException;
import java.io.InputStream;
import java.util.Objects;

/**
 * Where a set of tables lives: a folder of class-path resources seen through one class loader. A backend reads its
 * own tables through its own jar's loader ({@code TableSource.of(Sm80Backend.class, "/org/jptxas/backend/sm80/")}),
 * so a plugin jar's tables are found wherever the jar is loaded from. Names starting with {@code /} are absolute
 * resource paths (the shared family tables of the {@code tables} jar); others are relative to {@code root}.
 */
public record TableSource(ClassLoader loader, String root) {
    /** The tables bundled in the {@code tables} jar. */
    public static final TableSource SHARED = of(TableLoader.class, TableLoader.RESOURCE_ROOT);

    public TableSource {
        Objects.requireNonNull(loader, "loader");
        Objects.requireNonNull(root, "root");
        if (!root.startsWith("/") || !root.endsWith("/")) {
            throw new IllegalArgumentException("table root must be an absolute resource folder: " + root);
        }
    }

    /** The tables under {@code root} seen by {@code anchor}'s class loader. */
    public static TableSource of(Class<?> anchor, String root) {
        return new TableSource(anchor.getClassLoader(), root);
    }

    /** The absolute resource path of {@code name}. */
    public String path(String name) {
        return name.startsWith("/") ? name : root + name;
    }

    public boolean exists(String name) {
        return loader.getResource(path(name).substring(1)) != null;
    }

    /** Opens {@code name}, or returns null when there is no such resource. */
    public InputStream open(String name) {
        return loader.getResourceAsStream(path(name).substring(1));
    }

    /** Loads a table strictly, as {@link TableLoader#read} does; the messages name its resource path. */
    public <T> T load(String name, Class<T> type) {
        String path = path(name);
        try (InputStream in = open(name)) {
            if (in == null) {
                throw new TableException(path, "", "no such table on the class path of " + loader.getName(), null);
            }
            return TableLoader.read(path, in, type);
        } catch (IOException e) {
            throw new TableException(path, "", "cannot be read: " + e.getMessage(), e);
        }
    }

    /** A source for names relative to {@code name}'s folder (an overlay naming its base next to it). */
    public TableSource folderOf(String name) {
        String p = path(name);
        return new TableSource(loader, p.substring(0, p.lastIndexOf('/') + 1));
    }
}
