package io.seckill.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * What the documents tell a reader to run, run as written: every path of the repository they name exists, every
 * {@code bin/seckill} command they give is one the script takes, and every Maven command's {@code -pl :module} names a
 * module of the reactor whose {@code exec:java@id} is an execution of that module's.
 */
class DocumentedCommandsTest {

    private static final Path REPO = Path.of("").toAbsolutePath().getParent();
    /** A path in the repository, from one of its top folders; build output ({@code target/}) is made, not kept. */
    private static final Pattern REPOSITORY_PATH = Pattern.compile("(?<![\\w./-])"
            + "((?:services|platform|tools|e2e|compose|deploy|bin|docs|\\.ci)/[A-Za-z0-9_./-]*[A-Za-z0-9_/-])");
    /** A file the documents run or point at, wherever it lies: a script, a configuration, a schema. */
    private static final Pattern FILE_PATH = Pattern.compile(
            "(?<![\\w./:-])([A-Za-z0-9_.-]+/[A-Za-z0-9_./-]+\\.(?:mjs|js|sh|py|lua|yml|yaml|json|sql))\\b");
    private static final Pattern SECKILL_COMMAND = Pattern.compile("bin/seckill ([a-z][a-z-]*)");
    private static final Pattern MAVEN_MODULE = Pattern.compile("-pl :([a-z-]+)((?: [^`\\n]*?)?exec:java@([a-z-]+))?");
    private static final Pattern SCRIPT_CASE = Pattern.compile("(?m)^  ([a-z|-]+)\\)");
    private static final Pattern PARENT = Pattern.compile("(?s)<parent>.*?</parent>");
    private static final Pattern ARTIFACT = Pattern.compile("<artifactId>([^<]+)</artifactId>");
    private static final Pattern EXECUTION = Pattern.compile("<id>([^<]+)</id>");

    @Test
    void everyPathTheDocumentsNameExists() throws IOException {
        List<String> missing = new ArrayList<>();
        for (Path document : documents()) {
            String text = Files.readString(document);
            for (Pattern pattern : List.of(REPOSITORY_PATH, FILE_PATH)) {
                Matcher path = pattern.matcher(text);
                while (path.find()) {
                    String named = path.group(1);
                    if (!named.contains("/target") && !Files.exists(REPO.resolve(named))) {
                        missing.add(REPO.relativize(document) + ": " + named);
                    }
                }
            }
        }
        assertThat(missing).as("paths the documents name that are not in the repository").isEmpty();
    }

    @Test
    void everyBinSeckillCommandTheDocumentsGiveIsOneTheScriptTakes() throws IOException {
        Set<String> commands = new HashSet<>();
        Matcher label = SCRIPT_CASE.matcher(Files.readString(REPO.resolve("bin/seckill")));
        while (label.find()) {
            commands.addAll(List.of(label.group(1).split("\\|")));
        }
        List<String> unknown = new ArrayList<>();
        for (Path document : documents()) {
            Matcher command = SECKILL_COMMAND.matcher(Files.readString(document));
            while (command.find()) {
                if (!commands.contains(command.group(1))) {
                    unknown.add(REPO.relativize(document) + ": bin/seckill " + command.group(1));
                }
            }
        }
        assertThat(commands).contains("build", "test", "all");
        assertThat(unknown).as("bin/seckill commands the script does not take").isEmpty();
    }

    @Test
    void everyMavenModuleAndExecutionTheDocumentsRunExist() throws IOException {
        Map<String, String> pomByModule = modules();
        List<String> unknown = new ArrayList<>();
        int commands = 0;
        for (Path document : documents()) {
            Matcher maven = MAVEN_MODULE.matcher(Files.readString(document));
            while (maven.find()) {
                commands++;
                String module = maven.group(1);
                String pom = pomByModule.get(module);
                if (pom == null) {
                    unknown.add(REPO.relativize(document) + ": no module " + module);
                } else if (maven.group(3) != null && !executions(pom).contains(maven.group(3))) {
                    unknown.add(REPO.relativize(document) + ": no execution " + maven.group(3) + " in " + module);
                }
            }
        }
        assertThat(commands).as("Maven commands found in the documents").isPositive();
        assertThat(unknown).as("modules and executions the documents run that do not exist").isEmpty();
    }

    private static List<Path> documents() throws IOException {
        List<Path> documents = new ArrayList<>(List.of(REPO.resolve("README.md")));
        try (Stream<Path> docs = Files.list(REPO.resolve("docs"));
                Stream<Path> tools = Files.list(REPO.resolve("tools"))) {
            docs.filter(path -> path.toString().endsWith(".md")).forEach(documents::add);
            tools.map(tool -> tool.resolve("README.md")).filter(Files::exists).forEach(documents::add);
        }
        return documents;
    }

    /** Each module's pom by its artifact id, every pom of the reactor but build output's. */
    private static Map<String, String> modules() throws IOException {
        Map<String, String> modules = new HashMap<>();
        try (Stream<Path> poms = Files.walk(REPO)) {
            for (Path pom : poms.filter(path -> path.getFileName().toString().equals("pom.xml"))
                    .filter(path -> !path.toString().contains("/target/") && !path.toString().contains("/.git/"))
                    .toList()) {
                String text = Files.readString(pom);
                Matcher artifact = ARTIFACT.matcher(PARENT.matcher(text).replaceFirst(""));
                if (artifact.find()) {
                    modules.put(artifact.group(1), text);
                }
            }
        }
        return modules;
    }

    private static Set<String> executions(String pom) {
        Set<String> ids = new HashSet<>();
        Matcher id = EXECUTION.matcher(pom);
        while (id.find()) {
            ids.add(id.group(1));
        }
        return ids;
    }
}
