# One image for every seckill process: the build runs in the first stage (no Maven, no build output
# in the running containers or in the checkout), the second holds the runnable jars and bin/seckill.
#   docker build -t seckill .        then: docker run seckill db-sink   (any bin/seckill command)
FROM maven:3.9-eclipse-temurin-25 AS build
WORKDIR /src
COPY . .
RUN --mount=type=cache,target=/root/.m2 mvn -q -B -ntp install -DskipTests

FROM eclipse-temurin:25-jre
RUN useradd --system --uid 10001 seckill \
 && mkdir -p /var/lib/seckill/streams && chown -R seckill /var/lib/seckill
WORKDIR /opt/seckill
COPY --from=build /src/bin bin
COPY --from=build /src/services/ingress-api/target/ingress-api.jar services/ingress-api/target/
COPY --from=build /src/services/ingress-api/target/lib services/ingress-api/target/lib
COPY --from=build /src/services/ingress-api/target/bom.json services/ingress-api/target/
COPY --from=build /src/services/stream-processor/target/stream-processor.jar services/stream-processor/target/
COPY --from=build /src/services/stream-processor/target/lib services/stream-processor/target/lib
COPY --from=build /src/services/stream-processor/target/bom.json services/stream-processor/target/
COPY --from=build /src/services/db-sink/target/db-sink.jar services/db-sink/target/
COPY --from=build /src/services/db-sink/target/lib services/db-sink/target/lib
COPY --from=build /src/services/db-sink/target/bom.json services/db-sink/target/
COPY --from=build /src/services/reconciler/target/reconciler.jar services/reconciler/target/
COPY --from=build /src/services/reconciler/target/lib services/reconciler/target/lib
COPY --from=build /src/services/reconciler/target/bom.json services/reconciler/target/
USER seckill
ENTRYPOINT ["bin/seckill"]
