/*
 * MavenDeploy: the Maven 3.8.7 / Maven Resolver 1.6.3 side of scripts/bench-deploy.sh — deploys many modules
 * the way a Maven reactor's `mvn deploy` does: one repository session, then for each module, one after
 * another, one DeployRequest with its POM, its jar and its sources jar (maven-deploy-plugin 3.0.0
 * DeployMojo's order), to the repository AbstractDeployMojo.getRemoteRepository makes (credentials and proxy
 * from the settings' selectors, no mirror). Transport = BasicRepositoryConnector + WagonTransporter +
 * wagon-http, Maven 3.8.7's default stack (uploads one file at a time, then its checksums).
 *
 *   MavenDeploy --settings FILE --local-repository DIR --to ID::URL --modules FILE
 *
 * The modules file holds one module a line: POM JAR SOURCES (paths). Session set-up as the testbed's
 * MavenFetch.java (../shared/bench), from which the selector code is copied. Loopback only.
 */

import java.io.File;
import java.io.FileReader;
import java.io.Reader;
import java.net.InetAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.apache.maven.model.Model;
import org.apache.maven.model.io.xpp3.MavenXpp3Reader;
import org.apache.maven.repository.internal.MavenRepositorySystemUtils;
import org.apache.maven.settings.Server;
import org.apache.maven.settings.Settings;
import org.apache.maven.settings.building.DefaultSettingsBuilderFactory;
import org.apache.maven.settings.building.DefaultSettingsBuildingRequest;
import org.apache.maven.settings.building.SettingsBuildingResult;
import org.apache.maven.settings.building.SettingsProblem;
import org.apache.maven.wagon.Wagon;
import org.apache.maven.wagon.providers.http.HttpWagon;
import org.eclipse.aether.ConfigurationProperties;
import org.eclipse.aether.DefaultRepositorySystemSession;
import org.eclipse.aether.RepositorySystem;
import org.eclipse.aether.artifact.Artifact;
import org.eclipse.aether.artifact.DefaultArtifact;
import org.eclipse.aether.connector.basic.BasicRepositoryConnectorFactory;
import org.eclipse.aether.deployment.DeployRequest;
import org.eclipse.aether.impl.DefaultServiceLocator;
import org.eclipse.aether.repository.LocalRepository;
import org.eclipse.aether.repository.Proxy;
import org.eclipse.aether.repository.RemoteRepository;
import org.eclipse.aether.spi.connector.RepositoryConnectorFactory;
import org.eclipse.aether.spi.connector.transport.TransporterFactory;
import org.eclipse.aether.transport.wagon.WagonConfigurator;
import org.eclipse.aether.transport.wagon.WagonProvider;
import org.eclipse.aether.transport.wagon.WagonTransporterFactory;
import org.eclipse.aether.util.artifact.SubArtifact;
import org.eclipse.aether.util.repository.AuthenticationBuilder;
import org.eclipse.aether.util.repository.DefaultAuthenticationSelector;
import org.eclipse.aether.util.repository.DefaultProxySelector;

public final class MavenDeploy {

    static final class HttpWagonProvider implements WagonProvider {
        @Override
        public Wagon lookup(String roleHint) {
            if ("http".equals(roleHint) || "https".equals(roleHint)) {
                return new HttpWagon();
            }
            throw new IllegalArgumentException("no wagon for protocol " + roleHint);
        }

        @Override
        public void release(Wagon wagon) {
        }
    }

    static final class NoConfigWagonConfigurator implements WagonConfigurator {
        @Override
        public void configure(Wagon wagon, Object configuration) {
            if (configuration != null) {
                throw new IllegalArgumentException("<server><configuration> is not supported by MavenDeploy");
            }
        }
    }

    private static void die(String message) {
        System.err.println("MavenDeploy: " + message);
        System.exit(2);
    }

    public static void main(String[] args) throws Exception {
        long t0 = System.nanoTime();
        File settingsFile = null, localRepo = null, modulesFile = null;
        String to = null;
        for (int i = 0; i < args.length; i++) {
            String value = i + 1 < args.length ? args[i + 1] : null;
            switch (args[i]) {
                case "--settings": settingsFile = new File(value); i++; break;
                case "--local-repository": localRepo = new File(value); i++; break;
                case "--modules": modulesFile = new File(value); i++; break;
                case "--to": to = value; i++; break;
                default: die("unknown option " + args[i]);
            }
        }
        if (settingsFile == null || localRepo == null || modulesFile == null || to == null || !to.contains("::")) {
            die("usage: MavenDeploy --settings FILE --local-repository DIR --to ID::URL --modules FILE");
        }
        DefaultSettingsBuildingRequest sreq = new DefaultSettingsBuildingRequest();
        sreq.setUserSettingsFile(settingsFile);
        sreq.setSystemProperties(System.getProperties());
        SettingsBuildingResult sres = new DefaultSettingsBuilderFactory().newInstance().build(sreq);
        for (SettingsProblem p : sres.getProblems()) {
            System.err.println("MavenDeploy: settings: " + p);
        }
        Settings settings = sres.getEffectiveSettings();

        DefaultServiceLocator locator = MavenRepositorySystemUtils.newServiceLocator();
        locator.addService(RepositoryConnectorFactory.class, BasicRepositoryConnectorFactory.class);
        locator.addService(TransporterFactory.class, WagonTransporterFactory.class);
        locator.setServices(WagonProvider.class, new HttpWagonProvider());
        locator.setServices(WagonConfigurator.class, new NoConfigWagonConfigurator());
        RepositorySystem system = locator.getService(RepositorySystem.class);

        DefaultRepositorySystemSession session = MavenRepositorySystemUtils.newSession();
        Map<Object, Object> configProps = new LinkedHashMap<>();
        configProps.put(ConfigurationProperties.USER_AGENT, "Apache-Maven/3.8.7 MavenDeploy");
        configProps.put(ConfigurationProperties.INTERACTIVE, false);
        configProps.putAll(System.getProperties());
        configProps.put("maven.startTime", new Date());   // one timestamp for the whole build
        session.setLocalRepositoryManager(system.newLocalRepositoryManager(session, new LocalRepository(localRepo)));
        DefaultProxySelector proxies = new DefaultProxySelector();
        for (org.apache.maven.settings.Proxy p : settings.getProxies()) {
            if (p.isActive()) {
                AuthenticationBuilder auth = new AuthenticationBuilder();
                auth.addUsername(p.getUsername()).addPassword(p.getPassword());
                proxies.add(new Proxy(p.getProtocol(), p.getHost(), p.getPort(), auth.build()), p.getNonProxyHosts());
            }
        }
        session.setProxySelector(proxies);
        DefaultAuthenticationSelector auths = new DefaultAuthenticationSelector();
        for (Server s : settings.getServers()) {
            AuthenticationBuilder auth = new AuthenticationBuilder();
            auth.addUsername(s.getUsername()).addPassword(s.getPassword());
            auths.add(s.getId(), auth.build());
        }
        session.setAuthenticationSelector(auths);
        session.setSystemProperties(System.getProperties());
        session.setConfigProperties(configProps);

        // AbstractDeployMojo.getRemoteRepository: credentials and proxy, no mirror
        String id = to.substring(0, to.indexOf("::")), url = to.substring(to.indexOf("::") + 2);
        RemoteRepository raw = new RemoteRepository.Builder(id, "default", url).build();
        String host = URI.create(url).getHost();
        if (!InetAddress.getByName(host).isLoopbackAddress()) {
            die("refusing " + url + ": only loopback addresses are allowed");
        }
        RemoteRepository repo = new RemoteRepository.Builder(raw)
                .setAuthentication(session.getAuthenticationSelector().getAuthentication(raw))
                .setProxy(session.getProxySelector().getProxy(raw))
                .build();

        List<String[]> modules = new ArrayList<>();
        for (String line : Files.readAllLines(Paths.get(modulesFile.getPath()), StandardCharsets.UTF_8)) {
            if (!line.isBlank()) {
                modules.add(line.trim().split("\\s+"));
            }
        }
        long tDeploy = System.nanoTime();
        int files = 0;
        for (String[] m : modules) {
            Model model;
            try (Reader r = new FileReader(m[0], StandardCharsets.UTF_8)) {
                model = new MavenXpp3Reader().read(r);
            }
            Artifact jar = new DefaultArtifact(model.getGroupId(), model.getArtifactId(), "", "jar",
                    model.getVersion()).setFile(new File(m[1]));
            DeployRequest request = new DeployRequest();
            request.setRepository(repo);
            request.addArtifact(new SubArtifact(jar, "", "pom", new File(m[0])));
            request.addArtifact(jar);
            request.addArtifact(new SubArtifact(jar, "sources", "jar", new File(m[2])));
            system.deploy(session, request);
            files += 3;
        }
        long tEnd = System.nanoTime();
        System.out.printf("deployed %d modules (%d artifacts) to %s; startup %d ms, deploy %d ms%n",
                modules.size(), files, id, (tDeploy - t0) / 1_000_000, (tEnd - tDeploy) / 1_000_000);
    }
}
