package io.seckill.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerPort;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.KubernetesResource;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.Probe;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.autoscaling.v2.HorizontalPodAutoscaler;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyPort;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.seckill.config.PlaintextNetwork;
import io.seckill.ingress.http.TrustedProxies;
import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The Kubernetes manifests (deploy/kubernetes), each overlay rendered by Kustomize ({@code kubectl kustomize}, offline)
 * and read with fabric8's Kubernetes object model: every object parses as its kind with no field the model does not
 * know, and every workload keeps the rules docs/operations.md#kubernetes states: non-root on a read-only root
 * filesystem, requests and limits, probes on its management port, a disruption budget, a network policy that lets it
 * reach only the stores it uses, secrets from Secret objects, and autoscaling no wider than the partitions.
 */
class KubernetesManifestsTest {

    private static final Path MANIFESTS = CodeVariables.REPO.resolve("deploy/kubernetes");
    private static final Set<String> WORKLOADS = Set.of("ingress-api", "stream-processor", "db-sink", "reconciler");
    /**
     * The stores' ports each service may reach (besides DNS): Kafka 9092, Redis 6379, MySQL 3306, an identity
     * provider's JWKS 443.
     */
    private static final Map<String, Set<Integer>> EGRESS = Map.of(
            "ingress-api", Set.of(9092, 6379, 3306, 443),
            "stream-processor", Set.of(9092),
            "db-sink", Set.of(9092, 3306),
            "reconciler", Set.of(9092, 6379, 3306));

    private static final int DNS = 53;
    private static final Set<String> AUTOSCALED = Set.of("stream-processor", "db-sink");

    @ParameterizedTest
    @ValueSource(strings = {"development", "production"})
    void everyObjectIsAKnownKindWithNoUnknownField(String overlay) throws Exception {
        List<KubernetesResource> objects = render(overlay);

        assertThat(objects).isNotEmpty().allSatisfy(object -> {
            assertThat(object).as("a kind the model knows").isNotInstanceOf(GenericKubernetesResource.class);
            assertThat(unknownFields(object, "", new IdentityHashMap<>())).as(name(object)).isEmpty();
        });
    }

    @ParameterizedTest
    @ValueSource(strings = {"development", "production"})
    void everyWorkloadKeepsTheRules(String overlay) throws Exception {
        List<KubernetesResource> objects = render(overlay);
        Map<String, PodTemplateSpec> workloads = workloads(objects);
        assertThat(workloads.keySet()).isEqualTo(WORKLOADS);
        Set<String> codeReads = CodeVariables.all();
        ConfigMap settings = only(objects, ConfigMap.class).stream()
                .filter(map -> map.getMetadata().getName().startsWith("seckill-settings"))
                .findFirst()
                .orElseThrow();
        assertThat(settings.getData().keySet())
                .allMatch(name -> !name.startsWith("SECKILL_") || codeReads.contains(name));

        workloads.forEach((name, template) -> {
            PodSpec pod = template.getSpec();
            assertThat(pod.getSecurityContext().getRunAsNonRoot())
                    .as("%s runs as non-root", name)
                    .isTrue();
            assertThat(pod.getSecurityContext().getRunAsUser()).as(name).isPositive();
            assertThat(pod.getContainers()).hasSize(1);
            Container container = pod.getContainers().get(0);
            assertThat(container.getSecurityContext().getReadOnlyRootFilesystem())
                    .as("%s's root filesystem is read-only", name)
                    .isTrue();
            assertThat(container.getSecurityContext().getAllowPrivilegeEscalation())
                    .as(name)
                    .isFalse();
            assertThat(container.getSecurityContext().getCapabilities().getDrop())
                    .as(name)
                    .contains("ALL");
            for (Map<String, Quantity> bounds : List.of(
                    container.getResources().getRequests(),
                    container.getResources().getLimits())) {
                assertThat(bounds).as("%s's requests and limits", name).containsKeys("cpu", "memory");
            }
            int managementPort =
                    Integer.parseInt(env(container, "SECKILL_MANAGEMENT_PORT").getValue());
            for (Probe probe : List.of(container.getReadinessProbe(), container.getLivenessProbe())) {
                assertThat(port(container, probe.getHttpGet().getPort().getStrVal()))
                        .as("%s probes its management port", name)
                        .isEqualTo(managementPort);
            }
            assertThat(container.getReadinessProbe().getHttpGet().getPath()).isEqualTo("/ready");
            assertThat(container.getLivenessProbe().getHttpGet().getPath()).isEqualTo("/health");
            for (EnvVar variable : container.getEnv()) {
                assertThat(codeReads)
                        .as("%s sets %s, which the code reads", name, variable.getName())
                        .contains(variable.getName());
                if (variable.getName().matches(".*(PASSWORD|SECRET)")
                        || variable.getName().equals("SECKILL_REDIS_URL")) {
                    assertThat(variable.getValue())
                            .as("%s's %s is no literal", name, variable.getName())
                            .isNull();
                    assertThat(variable.getValueFrom().getSecretKeyRef())
                            .as("%s's %s comes from a Secret", name, variable.getName())
                            .isNotNull();
                }
            }
            assertThat(only(objects, PodDisruptionBudget.class))
                    .as("%s has a disruption budget", name)
                    .anyMatch(budget -> selects(budget.getSpec().getSelector().getMatchLabels(), template));
            NetworkPolicy policy = only(objects, NetworkPolicy.class).stream()
                    .filter(candidate -> !candidate
                            .getSpec()
                            .getPodSelector()
                            .getMatchLabels()
                            .isEmpty())
                    .filter(candidate ->
                            selects(candidate.getSpec().getPodSelector().getMatchLabels(), template))
                    .findFirst()
                    .orElseThrow(() -> new AssertionError(name + " has no network policy of its own"));
            assertThat(policy.getSpec().getPolicyTypes()).containsExactlyInAnyOrder("Ingress", "Egress");
            Set<Integer> reached = policy.getSpec().getEgress().stream()
                    .flatMap(rule -> rule.getPorts().stream())
                    .map(NetworkPolicyPort::getPort)
                    .map(port -> port.getIntVal())
                    .collect(Collectors.toSet());
            reached.remove(DNS);
            assertThat(reached).as("the ports %s reaches", name).isEqualTo(EGRESS.get(name));
        });
        assertThat(only(objects, NetworkPolicy.class))
                .as("everything else is denied")
                .anyMatch(policy -> policy.getSpec().getPodSelector().getMatchLabels() == null
                        || policy.getSpec().getPodSelector().getMatchLabels().isEmpty());

        int partitions = Integer.parseInt(settings.getData().get("SECKILL_TOPIC_PARTITIONS"));
        Map<String, HorizontalPodAutoscaler> autoscalers = only(objects, HorizontalPodAutoscaler.class).stream()
                .collect(Collectors.toMap(hpa -> hpa.getSpec().getScaleTargetRef().getName(), hpa -> hpa));
        assertThat(autoscalers.keySet()).isEqualTo(AUTOSCALED);
        autoscalers.forEach((name, hpa) -> {
            assertThat(hpa.getSpec().getMaxReplicas())
                    .as("%s never scales past the partitions", name)
                    .isLessThanOrEqualTo(partitions);
            assertThat(hpa.getSpec().getMetrics())
                    .as("%s scales by its consumer group's lag", name)
                    .anyMatch(metric -> metric.getExternal() != null
                            && metric.getExternal().getMetric().getName().equals("seckill_consumer_group_lag"));
        });
    }

    /**
     * Buyers reach the ingress only through the ingress controller, and the ingress believes the controller's
     * X-Forwarded-For: else every buyer counts as the controller's few addresses for the per-address limits.
     */
    @ParameterizedTest
    @ValueSource(strings = {"development", "production"})
    void theIngressBelievesTheProxyThatAloneReachesItsBuyersPort(String overlay) throws Exception {
        List<KubernetesResource> objects = render(overlay);
        Container ingress = workloads(objects).get("ingress-api").getSpec().getContainers().get(0);
        String proxies = env(ingress, TrustedProxies.SETTING).getValue();
        assertThat(TrustedProxies.parse(proxies)).as("a list the ingress takes").hasToString(proxies.replace(" ", ""));
        NetworkPolicy policy = only(objects, NetworkPolicy.class).stream()
                .filter(candidate ->
                        "ingress-api".equals(candidate.getMetadata().getName()))
                .findFirst()
                .orElseThrow();
        int buyersPort = port(ingress, "http");
        assertThat(policy.getSpec().getIngress())
                .filteredOn(rule ->
                        rule.getPorts().stream().anyMatch(port -> port.getPort().getIntVal() == buyersPort))
                .singleElement()
                .satisfies(rule -> assertThat(rule.getFrom())
                        .as("only from the ingress controller")
                        .singleElement()
                        .satisfies(
                                peer -> assertThat(peer.getNamespaceSelector().getMatchLabels())
                                        .containsKey("kubernetes.io/metadata.name")));
    }

    /**
     * Each service reaches MySQL as its own account (none names another with SECKILL_MYSQL_USER), with a password of
     * its own from the Secret; the ingress's admin listener with one apart from the buyers'; the stream-processor with
     * none. Redis likewise: a URL of its own (its ACL user) for each service that uses Redis.
     */
    @ParameterizedTest
    @ValueSource(strings = {"development", "production"})
    void eachServiceReachesMySqlAndRedisAsItsOwnUser(String overlay) throws Exception {
        List<KubernetesResource> objects = render(overlay);
        ConfigMap settings = only(objects, ConfigMap.class).stream()
                .filter(map -> map.getMetadata().getName().startsWith("seckill-settings"))
                .findFirst()
                .orElseThrow();
        assertThat(settings.getData())
                .doesNotContainKey("SECKILL_MYSQL_USER")
                .doesNotContainKey("SECKILL_ADMIN_MYSQL_USER");
        Map<String, String> keys = new HashMap<>();
        workloads(objects).forEach((name, template) -> {
            Container container = template.getSpec().getContainers().get(0);
            assertThat(container.getEnv())
                    .as(name)
                    .noneMatch(variable -> variable.getName().endsWith("MYSQL_USER"));
            container.getEnv().stream()
                    .filter(variable -> variable.getName().endsWith("MYSQL_PASSWORD")
                            || variable.getName().equals("SECKILL_REDIS_URL"))
                    .forEach(variable -> assertThat(keys.put(
                                    name + " " + variable.getName(),
                                    variable.getValueFrom().getSecretKeyRef().getKey()))
                            .isNull());
        });
        assertThat(keys)
                .isEqualTo(Map.of(
                        "ingress-api SECKILL_MYSQL_PASSWORD",
                        "ingress-api",
                        "ingress-api SECKILL_ADMIN_MYSQL_PASSWORD",
                        "admin",
                        "db-sink SECKILL_MYSQL_PASSWORD",
                        "db-sink",
                        "reconciler SECKILL_MYSQL_PASSWORD",
                        "reconciler",
                        "ingress-api SECKILL_REDIS_URL",
                        "ingress-api",
                        "reconciler SECKILL_REDIS_URL",
                        "reconciler"));
    }

    /** Production reaches every store over verified TLS: nothing in the clear, and no setting that allows it. */
    @Test
    void productionTalksToItsStoresOverVerifiedTls() throws Exception {
        ConfigMap settings = only(render("production"), ConfigMap.class).stream()
                .filter(map -> map.getMetadata().getName().startsWith("seckill-settings"))
                .findFirst()
                .orElseThrow();
        assertThat(settings.getData()).doesNotContainKey("SECKILL_MODE").doesNotContainKey(PlaintextNetwork.SETTING)
                .containsEntry("SECKILL_KAFKA_SECURITY_PROTOCOL", "SASL_SSL");
        assertThat(settings.getData().get("SECKILL_MYSQL_URL")).contains("sslMode=VERIFY_IDENTITY");
    }

    private static List<KubernetesResource> render(String overlay) throws IOException, InterruptedException {
        Process kustomize;
        try {
            kustomize = new ProcessBuilder(
                            "kubectl",
                            "kustomize",
                            MANIFESTS.resolve("overlays").resolve(overlay).toString())
                    .start();
        } catch (IOException missing) {
            throw new AssertionError(
                    "rendering the manifests needs kubectl (its built-in Kustomize) on the PATH: bin/seckill test"
                            + " fetches one",
                    missing);
        }
        String rendered = new String(kustomize.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        String errors = new String(kustomize.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(kustomize.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(kustomize.exitValue()).as(errors).isZero();
        KubernetesSerialization serialization = new KubernetesSerialization();
        List<KubernetesResource> objects = new ArrayList<>();
        for (String document : rendered.split("(?m)^---$", -1)) {
            if (!document.isBlank()) {
                objects.add(serialization.unmarshal(document, KubernetesResource.class));
            }
        }
        return objects;
    }

    private static Map<String, PodTemplateSpec> workloads(List<KubernetesResource> objects) {
        return Stream.concat(
                        only(objects, Deployment.class).stream()
                                .map(deployment -> Map.entry(
                                        deployment.getMetadata().getName(),
                                        deployment.getSpec().getTemplate())),
                        only(objects, StatefulSet.class).stream()
                                .map(set -> Map.entry(
                                        set.getMetadata().getName(),
                                        set.getSpec().getTemplate())))
                .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue));
    }

    private static <T> List<T> only(List<KubernetesResource> objects, Class<T> kind) {
        return objects.stream().filter(kind::isInstance).map(kind::cast).toList();
    }

    private static boolean selects(Map<String, String> selector, PodTemplateSpec template) {
        return selector != null
                && !selector.isEmpty()
                && template.getMetadata().getLabels().entrySet().containsAll(selector.entrySet());
    }

    private static EnvVar env(Container container, String name) {
        return container.getEnv().stream().filter(variable -> variable.getName().equals(name)).findFirst()
                .orElseThrow(() -> new AssertionError(container.getName() + " does not set " + name));
    }

    private static int port(Container container, String name) {
        return container.getPorts().stream()
                .filter(port -> name.equals(port.getName()))
                .map(ContainerPort::getContainerPort)
                .findFirst()
                .orElseThrow(() -> new AssertionError(container.getName() + " has no port named " + name));
    }

    private static String name(KubernetesResource object) {
        return object instanceof HasMetadata named
                ? named.getKind() + " " + named.getMetadata().getName()
                : object.getClass().getSimpleName();
    }

    /**
     * The paths of every field the model did not know (kept aside in an object's additionalProperties), walking the
     * whole object.
     */
    private static List<String> unknownFields(Object object, String path, IdentityHashMap<Object, Boolean> seen) {
        List<String> unknown = new ArrayList<>();
        if (object == null || seen.put(object, Boolean.TRUE) != null) {
            return unknown;
        }
        if (object instanceof Collection<?> items) {
            int index = 0;
            for (Object item : items) {
                unknown.addAll(unknownFields(item, path + "[" + index++ + "]", seen));
            }
            return unknown;
        }
        if (object instanceof Map<?, ?> entries) {
            entries.forEach((key, value) -> unknown.addAll(unknownFields(value, path + "." + key, seen)));
            return unknown;
        }
        if (!object.getClass().getPackageName().startsWith("io.fabric8.kubernetes.api.model")) {
            return unknown;
        }
        for (Method getter : object.getClass().getMethods()) {
            if (getter.getParameterCount() != 0
                    || Modifier.isStatic(getter.getModifiers())
                    || !getter.getName().startsWith("get")
                    || getter.getDeclaringClass() == Object.class) {
                continue;
            }
            Object value;
            try {
                value = getter.invoke(object);
            } catch (IllegalAccessException | InvocationTargetException e) {
                throw new LinkageError("cannot read " + path + "." + getter.getName(), e);
            }
            if (getter.getName().equals("getAdditionalProperties")) {
                if (value instanceof Map<?, ?> extra) {
                    extra.keySet().forEach(key -> unknown.add(path + "." + key));
                }
            } else {
                unknown.addAll(unknownFields(value, path + "." + getter.getName().substring(3), seen));
            }
        }
        return unknown;
    }
}
