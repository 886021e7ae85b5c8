package io.seckill.e2e.script;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code bin/seckill} in a working copy of its own: without a build it says what is missing and starts no JVM; with one
 * it runs the Java 25 in {@code JAVA_HOME} and never an older one.
 */
class BinSeckillTest {

    /** What bin/seckill gives every JVM first: leave to load native code and to use sun.misc.Unsafe, unwarned. */
    private static final String JVM_PERMITS =
            "--enable-native-access=ALL-UNNAMED --sun-misc-unsafe-memory-access=allow ";

    private static final Path SCRIPT = Path.of("").toAbsolutePath().getParent().resolve("bin/seckill");

    @TempDir
    Path checkout;

    @Test
    void aMissingJarExitsNonZeroWithItsMessageAndStartsNoJava() throws Exception {
        Path bin = Files.createDirectories(checkout.resolve("bin"));
        Files.copy(SCRIPT, bin.resolve("seckill"));
        // A java that leaves a mark, first on the PATH: the script must never reach it.
        Path fakeJdk = Files.createDirectories(checkout.resolve("fake-jdk"));
        Path marker = checkout.resolve("java-was-started");
        executable(fakeJdk.resolve("java"), "#!/bin/sh\ntouch '" + marker + "'\n");

        for (String command : new String[] {"all", "servers", "db-sink", "mint-token"}) {
            ProcessBuilder builder = new ProcessBuilder(bin.resolve("seckill").toString(), command)
                    .directory(checkout.toFile())
                    .redirectErrorStream(true);
            builder.environment().put("PATH", fakeJdk + ":" + System.getenv("PATH"));
            builder.environment().put("SECKILL_DATA_DIR", checkout.resolve("data").toString());
            Process process = builder.start();
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();

            assertThat(process.exitValue()).as(command + ": " + output).isNotZero();
            assertThat(output).as(command).contains("is missing; build first");
            assertThat(marker).as(command + " started java").doesNotExist();
        }
    }

    @Test
    void aJava25InJavaHomeRunsTheCommand() throws Exception {
        Path bin = checkoutWithAnIngressJar();
        Path arguments = checkout.resolve("java-arguments");
        Path jdk = fakeJdk("jdk-25", "25.0.1", "#!/bin/sh\necho \"$@\" > '" + arguments + "'\n");

        Process process = run(bin, jdk, "mint-token", "alice");

        assertThat(process.exitValue()).isZero();
        assertThat(Files.readString(arguments))
                .contains("-cp " + checkout.resolve("services/ingress-api/target/ingress-api.jar"))
                .contains("io.seckill.buyeraccess.tokens.MintTokenCommand alice");
    }

    @Test
    void aServiceStartsFromItsAotCacheOnlyWhileItsJarsAreThoseOfTheTrainingAndJavaOptsDoNotChoose() throws Exception {
        Path bin = checkoutWithAnIngressJar();
        Path arguments = checkout.resolve("java-arguments");
        Path jdk = fakeJdk("jdk-25", "25.0.1", "#!/bin/sh\necho \"$@\" > '" + arguments + "'\n");
        Path jar = checkout.resolve("services/ingress-api/target/ingress-api.jar");
        Files.createDirectories(checkout.resolve("services/ingress-api/target/lib"));
        Files.writeString(checkout.resolve("services/ingress-api/target/lib/library.jar"), "a library");

        assertThat(run(bin, jdk, "ingress-api").exitValue()).isZero();
        assertThat(Files.readString(arguments)).doesNotContain("-XX:AOT");

        // What bin/seckill train leaves: the cache, and the digest of the jars it was made from.
        Path cache = Files.createFile(checkout.resolve("services/ingress-api/target/ingress-api.aot"));
        Files.writeString(
                checkout.resolve("services/ingress-api/target/ingress-api.aot.jars"),
                shell("stat -c '%n %s %Y' '" + jar + "' '"
                        + checkout.resolve("services/ingress-api/target/lib/library.jar")
                        + "' | sha256sum | cut -d' ' -f1"));
        assertThat(run(bin, jdk, "ingress-api").exitValue()).isZero();
        assertThat(Files.readString(arguments))
                .startsWith(JVM_PERMITS + "-XX:AOTCache=" + cache + " ")
                .contains("-jar " + jar);

        assertThat(run(bin, jdk, Map.of("JAVA_OPTS", "-XX:AOTMode=off"), "ingress-api").exitValue()).isZero();
        assertThat(Files.readString(arguments))
                .doesNotContain("-XX:AOTCache")
                .startsWith(JVM_PERMITS + "-XX:AOTMode=off ");

        // A rebuilt library: JDK 25.0.3 would run the cache's classes of the old one, so the script leaves the cache
        // out.
        Files.writeString(checkout.resolve("services/ingress-api/target/lib/library.jar"), "a library, rebuilt");
        Process rebuilt = run(bin, jdk, "ingress-api");
        assertThat(rebuilt.exitValue()).isZero();
        assertThat(Files.readString(arguments)).doesNotContain("-XX:AOT");
        assertThat(new String(rebuilt.getErrorStream().readAllBytes(), StandardCharsets.UTF_8))
                .contains(cache + " was made from other jars than these; starting without it");
    }

    private static String shell(String command) throws Exception {
        Process process = new ProcessBuilder("bash", "-c", command).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();
        return output;
    }

    @Test
    void mavenRunsInTheCheckoutOnTheJava25ItFound() throws Exception {
        Path bin = checkoutWithAnIngressJar();
        Path jdk = fakeJdk("jdk-25", "25.0.1", "#!/bin/sh\n");
        // A mvn that says where it ran, with which Java and which arguments, first on the PATH.
        Path tools = Files.createDirectories(checkout.resolve("tools"));
        Path said = checkout.resolve("mvn-ran");
        executable(tools.resolve("mvn"), "#!/bin/sh\necho \"$PWD $JAVA_HOME $@\" > '" + said + "'\n");

        Process process =
                run(bin, jdk, Map.of("PATH", tools + ":" + System.getenv("PATH")), "mvn", "-B", "-ntp", "install");

        assertThat(process.exitValue()).isZero();
        assertThat(Files.readString(said).strip()).isEqualTo(checkout + " " + jdk + " -B -ntp install");
    }

    @Test
    void anOlderJavaInJavaHomeIsNeverStartedAndTheScriptSaysSo() throws Exception {
        Path bin = checkoutWithAnIngressJar();
        Path marker = checkout.resolve("java-17-was-started");
        Path jdk = fakeJdk("jdk-17", "17.0.15", "#!/bin/sh\ntouch '" + marker + "'\n");

        Process process = run(bin, jdk, "solve-challenge");

        assertThat(new String(process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8))
                .contains("JAVA_HOME (" + jdk + ") is not a Java 25 or newer");
        assertThat(marker).doesNotExist();
    }

    private Path checkoutWithAnIngressJar() throws IOException {
        Path bin = Files.createDirectories(checkout.resolve("bin"));
        Files.copy(SCRIPT, bin.resolve("seckill"));
        Files.createFile(Files.createDirectories(checkout.resolve("services/ingress-api/target"))
                .resolve("ingress-api.jar"));
        return bin;
    }

    /** A Java installation as the script sees one: a release file naming its version and a bin/java. */
    private Path fakeJdk(String name, String version, String java) throws IOException {
        Path home = Files.createDirectories(checkout.resolve(name).resolve("bin")).getParent();
        Files.writeString(home.resolve("release"), "IMPLEMENTOR=\"test\"\nJAVA_VERSION=\"" + version + "\"\n");
        executable(home.resolve("bin/java"), java);
        return home;
    }

    private Process run(Path bin, Path javaHome, String... command) throws Exception {
        return run(bin, javaHome, Map.of(), command);
    }

    private Process run(Path bin, Path javaHome, Map<String, String> environment, String... command) throws Exception {
        List<String> line = new ArrayList<>(List.of(bin.resolve("seckill").toString()));
        line.addAll(List.of(command));
        ProcessBuilder builder = new ProcessBuilder(line).directory(checkout.toFile());
        builder.environment().put("JAVA_HOME", javaHome.toString());
        builder.environment().put("SECKILL_DATA_DIR", checkout.resolve("data").toString());
        builder.environment().remove("JAVA_OPTS");
        builder.environment().putAll(environment);
        Process process = builder.start();
        assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();
        return process;
    }

    private static void executable(Path file, String content) throws IOException {
        Files.writeString(file, content);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
    }
}
