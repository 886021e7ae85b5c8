package io.seckill.runtime;

import io.seckill.config.Env;
import io.seckill.config.KafkaAccess;
import io.seckill.config.KafkaGroups;
import io.seckill.config.KafkaPrincipal;
import io.seckill.config.KafkaSecurity;
import io.seckill.schemas.kafka.KafkaAcls;
import java.io.PrintWriter;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.acl.AccessControlEntryFilter;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclBindingFilter;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourcePatternFilter;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * The ACL catalogue ({@link KafkaAcls}) for an operator: printed as {@code kafka-acls.sh} commands to review or run, or
 * applied with {@code --apply} to the brokers of SECKILL_KAFKA_BOOTSTRAP as the principal the SECKILL_KAFKA_* settings
 * name (one that may alter ACLs). Group and application names come from the services' own settings
 * (SECKILL_SINK_GROUP_ID, SECKILL_STREAMS_APPLICATION_ID), so the ACLs match what the services join.
 *
 * <p>Applying converges: each catalogued principal ends with exactly its catalogue's bindings. The missing ones are
 * created first, then the ones the catalogue no longer has (an earlier release's wider rights, a hand-made grant) are
 * printed and deleted, so a service never loses a right it keeps. {@code --dry-run} prints both and changes nothing.
 * Principals the catalogue does not name (the operator, a super user) are left as they are.
 */
@Command(
        name = "kafka-acls",
        mixinStandardHelpOptions = true,
        description =
                "Prints (or, with --apply, makes the brokers hold exactly) the ACLs that let each seckill service do"
                        + " on Kafka what it does, and nothing more.")
public final class KafkaAclsCommand implements Callable<Integer> {

    private static final int TIMEOUT_SECONDS = 60;

    @Option(
            names = "--apply",
            description = "create the catalogue's ACLs on $" + "SECKILL_KAFKA_BOOTSTRAP and delete those its principals"
                    + " hold beyond it, each printed first")
    boolean apply;

    @Option(
            names = "--dry-run",
            description = "compare with the brokers: print the ACLs --apply would create and delete, change nothing")
    boolean dryRun;

    @Spec
    CommandSpec spec;

    private final Map<String, String> environment;

    public KafkaAclsCommand() {
        this(System.getenv());
    }

    KafkaAclsCommand(Map<String, String> environment) {
        this.environment = environment;
    }

    @Override
    public Integer call() throws Exception {
        Env env = new Env(environment);
        List<AclBinding> acls = KafkaAcls.all(KafkaGroups.from(env));
        PrintWriter out = spec.commandLine().getOut();
        if (!apply && !dryRun) {
            acls.forEach(acl -> out.println(asScript(acl)));
            return 0;
        }
        KafkaAccess kafka = new KafkaAccess(env.string("SECKILL_KAFKA_BOOTSTRAP", "localhost:9092"),
                KafkaSecurity.from(env, KafkaPrincipal.OPERATOR));
        try (Admin admin = Admin.create(kafka.clientProperties())) {
            Set<AclBinding> held = held(admin, acls);
            List<AclBinding> missing = acls.stream().filter(acl -> !held.contains(acl)).toList();
            Set<AclBinding> catalogue = Set.copyOf(acls);
            List<AclBinding> stale = held.stream().filter(acl -> !catalogue.contains(acl)).toList();
            missing.forEach(acl -> out.println((dryRun ? "would create: " : "create: ") + describe(acl)));
            stale.forEach(acl -> out.println((dryRun ? "would delete: " : "delete: ") + describe(acl)));
            if (dryRun) {
                out.println("dry run: " + missing.size() + " ACLs to create, " + stale.size() + " to delete on "
                        + kafka + "; nothing changed");
                return 0;
            }
            admin.createAcls(acls).all().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            if (!stale.isEmpty()) {
                admin.deleteAcls(stale.stream().map(AclBinding::toFilter).toList())
                        .all().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            }
            out.println("applied " + acls.size() + " ACLs to " + kafka + " (" + missing.size() + " created, "
                    + stale.size() + " deleted)");
        }
        return 0;
    }

    /** Every binding the brokers hold for the principals the catalogue names, whatever the resource or permission. */
    private static Set<AclBinding> held(Admin admin, List<AclBinding> catalogue) throws Exception {
        Set<AclBinding> held = new LinkedHashSet<>();
        for (String principal : catalogue.stream().map(acl -> acl.entry().principal()).distinct().toList()) {
            held.addAll(admin.describeAcls(new AclBindingFilter(
                            ResourcePatternFilter.ANY,
                            new AccessControlEntryFilter(
                                    principal, null, AclOperation.ANY, AclPermissionType.ANY)))
                    .values().get(TIMEOUT_SECONDS, TimeUnit.SECONDS));
        }
        return held;
    }

    /** One binding in a line: who, allowed or denied what, on which resource, from which host. */
    static String describe(AclBinding acl) {
        ResourcePattern pattern = acl.pattern();
        return acl.entry().principal() + " " + acl.entry().permissionType() + " " + acl.entry().operation() + " on "
                + pattern.resourceType() + " '" + pattern.name() + "'"
                + (pattern.patternType() == PatternType.LITERAL ? "" : " (" + pattern.patternType() + ")")
                + ("*".equals(acl.entry().host()) ? "" : " from " + acl.entry().host());
    }

    /** One {@code kafka-acls.sh --add} command; broker address and the admin client's settings are the operator's. */
    static String asScript(AclBinding acl) {
        ResourcePattern pattern = acl.pattern();
        String resource = switch (pattern.resourceType()) {
            case TOPIC -> "--topic '" + pattern.name() + "'";
            case GROUP -> "--group '" + pattern.name() + "'";
            case TRANSACTIONAL_ID -> "--transactional-id '" + pattern.name() + "'";
            case CLUSTER -> "--cluster";
            case ANY, UNKNOWN, DELEGATION_TOKEN, USER ->
                throw new IllegalArgumentException("not in the catalogue: " + pattern);
        };
        return "kafka-acls.sh --bootstrap-server \"$KAFKA_BOOTSTRAP\" --command-config \"$KAFKA_ADMIN_CONFIG\" --add"
                + " --allow-principal '"
                + acl.entry().principal() + "' --operation "
                + camel(acl.entry().operation().name()) + " " + resource
                + (pattern.patternType() == PatternType.PREFIXED ? " --resource-pattern-type prefixed" : "");
    }

    private static String camel(String constant) {
        StringBuilder name = new StringBuilder();
        for (String word : constant.split("_", -1)) {
            name.append(word.charAt(0)).append(word.substring(1).toLowerCase(Locale.ROOT));
        }
        return name.toString();
    }

    public static void main(String[] args) {
        System.exit(new CommandLine(new KafkaAclsCommand()).execute(args));
    }
}
