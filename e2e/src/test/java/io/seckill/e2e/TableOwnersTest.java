package io.seckill.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every table has one writing class, in mysql-state: read from the main sources, where each write names its table as
 * jOOQ's generated constant ({@code insertInto(OUTBOX}, {@code update(SKU)}, ...). The relay's bookkeeping, written
 * once for both outbox tables, names none: its two owners hand it their tables.
 */
class TableOwnersTest {

    private static final Pattern WRITE =
            Pattern.compile("\\b(?:insertInto|update|deleteFrom|mergeInto)\\(\\s*(?:Tables\\.)?([A-Z][A-Z_]+)\\b");
    private static final String MYSQL_STATE = "platform/mysql-state/src/main/java/";

    @Test
    void everyTableIsWrittenByOneClassOfMysqlState() throws IOException {
        Map<String, Set<String>> writersByTable = new TreeMap<>();
        try (Stream<Path> sources = Files.walk(CodeVariables.REPO)) {
            sources.filter(path -> path.toString().endsWith(".java") && path.toString().contains("/src/main/java/"))
                    .forEach(source -> {
                        Matcher write = WRITE.matcher(CodeVariables.read(source));
                        while (write.find()) {
                            writersByTable.computeIfAbsent(write.group(1), table -> new TreeSet<>())
                                    .add(CodeVariables.REPO.relativize(source).toString());
                        }
                    });
        }

        assertThat(writersByTable)
                .containsKeys("OUTBOX", "ORDER_EVENTS", "ORDERS", "SKU", "USER_PURCHASES", "DEAD_LETTERS");
        assertThat(writersByTable)
                .allSatisfy((table, writers) -> assertThat(writers)
                        .as("the classes writing %s", table)
                        .hasSize(1)
                        .allMatch(writer -> writer.startsWith(MYSQL_STATE)));
    }
}
