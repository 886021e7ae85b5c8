package io.seckill.e2e;

import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.Location;
import com.tngtech.archunit.library.dependencies.SliceAssignment;
import com.tngtech.archunit.library.dependencies.SliceIdentifier;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * No package of the project's main code depends on itself through others: each package is a room whose arrows run one
 * way. Read from the compiled classes of every module on this test's class path (the services, the libraries under
 * them, the launcher, local-infra and the process driver); the tests, whose helpers sit in the packages they test, are
 * left out.
 */
class PackageLoopsTest {

    private static final Pattern TEST_JAR = Pattern.compile(".*-tests\\.jar.*");

    /** The classes jOOQ generates from the schema, whose tables and records refer to each other by design. */
    private static final String GENERATED = "io.seckill.schemas.db";

    /**
     * Each package of the project its own slice (jOOQ's generated classes one together); the libraries' classes none.
     */
    private static final SliceAssignment BY_PACKAGE = new SliceAssignment() {
        @Override
        public SliceIdentifier getIdentifierOf(JavaClass type) {
            String name = type.getPackageName();
            if (name.equals(GENERATED) || name.startsWith(GENERATED + ".")) {
                return SliceIdentifier.of(GENERATED);
            }
            return name.startsWith("io.seckill.") ? SliceIdentifier.of(name) : SliceIdentifier.ignore();
        }

        @Override
        public String getDescription() {
            return "each package of io.seckill";
        }
    };

    @Test
    void noPackageOfTheMainCodeDependsOnItselfThroughOthers() {
        JavaClasses main = new ClassFileImporter()
                .withImportOption(PackageLoopsTest::mainCode)
                .importPackages("io.seckill");

        slices().assignedFrom(BY_PACKAGE).should().beFreeOfCycles().check(main);
    }

    /** A module's main classes: its target/classes folder or its jar, never test classes or a test jar. */
    static boolean mainCode(Location location) {
        return !location.contains("/test-classes/") && !location.matches(TEST_JAR);
    }
}
