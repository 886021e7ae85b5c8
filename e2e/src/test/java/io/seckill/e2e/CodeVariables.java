package io.seckill.e2e;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/** The SECKILL_ variables the code reads (its sources, their XML and bin/seckill), for the deployment files' tests. */
final class CodeVariables {

    static final Path REPO = Path.of("").toAbsolutePath().getParent();
    private static final Pattern JAVA_NAME = Pattern.compile("\"(SECKILL_[A-Z0-9_]+)\"");
    private static final Pattern SHELL_OR_XML_NAME = Pattern.compile("\\$\\{?(SECKILL_[A-Z0-9_]+)");

    private CodeVariables() {
    }

    static Set<String> all() {
        Set<String> names = new TreeSet<>();
        try (Stream<Path> files = Files.walk(REPO)) {
            files.filter(path -> path.toString().contains("/src/main/")
                            && !path.toString().contains("/target/"))
                    .filter(path ->
                            path.toString().endsWith(".java") || path.toString().endsWith(".xml"))
                    .forEach(path -> names.addAll(
                            matches(path.toString().endsWith(".java") ? JAVA_NAME : SHELL_OR_XML_NAME, read(path))));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        names.addAll(matches(SHELL_OR_XML_NAME, read(REPO.resolve("bin/seckill"))));
        return names;
    }

    static Set<String> matches(Pattern pattern, String text) {
        Set<String> found = new TreeSet<>();
        Matcher matcher = pattern.matcher(text);
        while (matcher.find()) {
            found.add(matcher.group(1));
        }
        return found;
    }

    static String read(Path path) {
        try {
            return Files.readString(path);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
