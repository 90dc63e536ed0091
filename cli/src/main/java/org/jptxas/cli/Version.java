package org.jptxas.cli;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;

/** The project version, filtered into a resource at build time. */
final class Version {
    private Version() {}

    static String get() {
        Properties p = new Properties();
        try (InputStream in = Version.class.getResourceAsStream("version.properties")) {
            if (in != null) {
                p.load(in);
            }
        } catch (IOException e) {
            // fall through to the default below
        }
        return p.getProperty("version", "unknown");
    }
}
