package io.seckill.e2e;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import io.seckill.dbsink.DbSink;
import io.seckill.dbsink.DbSinkConfig;
import io.seckill.ingress.IngressApi;
import io.seckill.ingress.IngressConfig;
import io.seckill.ingress.features.Feature;
import io.seckill.reconciler.Reconciler;
import io.seckill.reconciler.ReconcilerConfig;
import io.seckill.streamprocessor.StreamProcessor;
import io.seckill.streamprocessor.StreamProcessorConfig;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The rules the modules' layout keeps, read from the compiled main classes of every module on this test's class path.
 */
class ModuleBoundariesTest {

    private static final String[] SERVICES = {
        "io.seckill.ingress..", "io.seckill.streamprocessor..", "io.seckill.dbsink..", "io.seckill.reconciler.."
    };
    private static final String[] TOOLS = {
        "io.seckill.launcher..",
        "io.seckill.benchmark..",
        "io.seckill.faultmatrix..",
        "io.seckill.baselines..",
        "io.seckill.processdriver..",
        "io.seckill.localinfra.."
    };
    /** A service as a tool may start it: its entry point and the settings it starts from. */
    private static final Set<Class<?>> ENTRY_POINTS = Set.of(
            IngressApi.class,
            IngressConfig.class,
            StreamProcessor.class,
            StreamProcessorConfig.class,
            DbSink.class,
            DbSinkConfig.class,
            Reconciler.class,
            ReconcilerConfig.class);

    private static JavaClasses main;

    @BeforeAll
    static void importMainClasses() {
        main = new ClassFileImporter().withImportOption(PackageLoopsTest::mainCode).importPackages("io.seckill");
    }

    @Test
    void toolsReachAServiceOnlyThroughItsEntryPoint() {
        noClasses()
                .that()
                .resideInAnyPackage(TOOLS)
                .should()
                .dependOnClassesThat(insideAServiceButNoEntryPoint())
                .check(main);
    }

    @Test
    void everyClassThatAnswersRoutesIsADesk() {
        classes().that().implement(Feature.class).should().haveSimpleNameEndingWith("Desk").check(main);
    }

    private static DescribedPredicate<JavaClass> insideAServiceButNoEntryPoint() {
        return DescribedPredicate.describe(
                "belong to a service but are not its entry point or settings",
                type -> JavaClass.Predicates.resideInAnyPackage(SERVICES).test(type)
                        && ENTRY_POINTS.stream()
                                .noneMatch(entry -> type.isEquivalentTo(entry) || isNestedIn(type, entry)));
    }

    /** A record nested in an entry point's settings (its parts, as {@code IngressConfig.QueryPool}) is part of them. */
    private static boolean isNestedIn(JavaClass type, Class<?> entry) {
        return type.getName().startsWith(entry.getName() + "$");
    }
}
