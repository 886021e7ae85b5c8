package io.seckill.runtime;

import io.seckill.config.Env;
import io.seckill.config.KafkaAccess;
import io.seckill.config.KafkaGroups;
import io.seckill.config.KafkaPrincipal;
import io.seckill.config.KafkaSecurity;
import io.seckill.schemas.kafka.KafkaAcls;
import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
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
 */
@Command(
        name = "kafka-acls",
        mixinStandardHelpOptions = true,
        description =
                "Prints (or, with --apply, creates) the ACLs that let each seckill service do on Kafka what it does,"
                        + " and nothing more.")
public final class KafkaAclsCommand implements Callable<Integer> {

    @Option(
            names = "--apply",
            description = "create the ACLs on $" + "SECKILL_KAFKA_BOOTSTRAP instead of printing them")
    boolean apply;

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
        if (!apply) {
            acls.forEach(acl -> out.println(asScript(acl)));
            return 0;
        }
        KafkaAccess kafka = new KafkaAccess(env.string("SECKILL_KAFKA_BOOTSTRAP", "localhost:9092"),
                KafkaSecurity.from(env, KafkaPrincipal.OPERATOR));
        try (Admin admin = Admin.create(kafka.clientProperties())) {
            admin.createAcls(acls).all().get(60, TimeUnit.SECONDS);
        }
        out.println("applied " + acls.size() + " ACLs to " + kafka);
        return 0;
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
