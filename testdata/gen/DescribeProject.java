/*
 * DescribeProject: real Maven 3.8.7 classes answer `m2r describe --json --pom FILE` (the project model of a
 * POM file, as `m2r tree --pom` reads it), in the document of `m2r describe`.
 *
 *   DescribeProject [--settings FILE] [--repo id=url]... [-D k=v]... [--local-repository DIR] --pom FILE
 *
 * The model is built the way ../shared/oracle/Deps.java builds the project of `tree --pom`:
 * DefaultModelBuilder, ProjectModelResolver (POM_DOMINANT), validation level 3.0, no plugin processing, the
 * same pinned system properties, the settings' mirrors applied to the repositories. Dependencies are converted
 * as maven-core's RepositoryUtils.toDependency does. Output: the describe document (artifact g:a:pom:v), or,
 * when the model cannot be built, {"artifact": null, "error": [...]} with exit status 1.
 *
 * Build and run: regen_deps_describe.py compiles it into $XDG_CACHE_HOME/m2r-describe-project and runs it for
 * cases whose args contain --pom.
 */

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;

import org.apache.maven.model.Model;
import org.apache.maven.model.Repository;
import org.apache.maven.model.building.DefaultModelBuilderFactory;
import org.apache.maven.model.building.DefaultModelBuildingRequest;
import org.apache.maven.model.building.ModelBuildingException;
import org.apache.maven.model.building.ModelBuildingRequest;
import org.apache.maven.model.building.ModelProblem;
import org.apache.maven.project.ProjectBuildingRequest;
import org.apache.maven.project.ProjectModelResolver;
import org.apache.maven.repository.internal.MavenRepositorySystemUtils;
import org.apache.maven.settings.Mirror;
import org.apache.maven.settings.Settings;
import org.apache.maven.settings.building.DefaultSettingsBuilderFactory;
import org.apache.maven.settings.building.DefaultSettingsBuildingRequest;
import org.apache.maven.wagon.Wagon;
import org.apache.maven.wagon.providers.file.FileWagon;
import org.eclipse.aether.DefaultRepositorySystemSession;
import org.eclipse.aether.RepositorySystem;
import org.eclipse.aether.artifact.ArtifactType;
import org.eclipse.aether.artifact.DefaultArtifact;
import org.eclipse.aether.connector.basic.BasicRepositoryConnectorFactory;
import org.eclipse.aether.graph.Dependency;
import org.eclipse.aether.graph.Exclusion;
import org.eclipse.aether.impl.DefaultServiceLocator;
import org.eclipse.aether.impl.RemoteRepositoryManager;
import org.eclipse.aether.repository.LocalRepository;
import org.eclipse.aether.repository.RemoteRepository;
import org.eclipse.aether.repository.RepositoryPolicy;
import org.eclipse.aether.spi.connector.RepositoryConnectorFactory;
import org.eclipse.aether.spi.connector.transport.TransporterFactory;
import org.eclipse.aether.transport.wagon.WagonConfigurator;
import org.eclipse.aether.transport.wagon.WagonProvider;
import org.eclipse.aether.transport.wagon.WagonTransporterFactory;

public final class DescribeProject {

    public static void main(String[] args) throws Exception {
        List<RemoteRepository> repos = new ArrayList<>();
        Map<String, String> user = new LinkedHashMap<>();
        String pom = null, localDir = null, settingsFile = null;
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            if (a.equals("--json") || a.equals("describe")) {
                continue;
            } else if (a.equals("--settings")) {
                settingsFile = args[++i];
            } else if (a.equals("--local-repository")) {
                localDir = args[++i];
            } else if (a.equals("--repo")) {
                String v = args[++i];
                int eq = v.indexOf('=');
                repos.add(new RemoteRepository.Builder(v.substring(0, eq), "default", v.substring(eq + 1))
                        .setPolicy(new RepositoryPolicy(true, "daily", "warn")).build());
            } else if (a.startsWith("-D")) {
                String kv = a.length() > 2 ? a.substring(2) : args[++i];
                int eq = kv.indexOf('=');
                if (eq <= 0) {
                    user.put(kv.trim(), "true");
                } else {
                    user.put(kv.substring(0, eq).trim(), kv.substring(eq + 1));
                }
            } else if (a.equals("--pom")) {
                pom = args[++i];
            } else {
                throw new IllegalArgumentException("unexpected argument " + a);
            }
        }
        DefaultServiceLocator locator = MavenRepositorySystemUtils.newServiceLocator();
        locator.addService(RepositoryConnectorFactory.class, BasicRepositoryConnectorFactory.class);
        locator.addService(TransporterFactory.class, WagonTransporterFactory.class);
        locator.setServices(WagonProvider.class, new WagonProvider() {
            public Wagon lookup(String hint) {
                return new FileWagon();
            }

            public void release(Wagon wagon) {
            }
        });
        locator.setServices(WagonConfigurator.class, (wagon, configuration) -> {
        });
        RepositorySystem system = locator.getService(RepositorySystem.class);
        DefaultRepositorySystemSession session = MavenRepositorySystemUtils.newSession();
        Map<String, String> sys = new LinkedHashMap<>();
        sys.put("java.version", "17.0.9");
        sys.put("java.specification.version", "17");
        sys.put("os.name", "Linux");
        sys.put("os.arch", "amd64");
        sys.put("os.version", "6.1.0");
        sys.put("file.separator", "/");
        sys.put("path.separator", ":");
        sys.put("line.separator", "\n");
        sys.put("user.home", "/nonexistent-home");
        sys.putAll(user);
        System.setProperty("os.name", "Linux");
        System.setProperty("os.arch", "amd64");
        System.setProperty("os.version", "6.1.0");
        session.setSystemProperties(sys);
        session.setConfigProperties(new LinkedHashMap<String, Object>(sys));
        session.setUserProperties(user);
        Path local = localDir != null ? new File(localDir).toPath() : Files.createTempDirectory("describe-project");
        session.setLocalRepositoryManager(system.newLocalRepositoryManager(session, new LocalRepository(local.toFile())));
        if (settingsFile != null) {
            DefaultSettingsBuildingRequest sreq = new DefaultSettingsBuildingRequest();
            sreq.setUserSettingsFile(new File(settingsFile));
            Properties sp = new Properties();
            sp.putAll(sys);
            Properties up = new Properties();
            up.putAll(user);
            sreq.setSystemProperties(sp);
            sreq.setUserProperties(up);
            Settings settings = new DefaultSettingsBuilderFactory().newInstance().build(sreq).getEffectiveSettings();
            org.eclipse.aether.util.repository.DefaultMirrorSelector mirrors = new org.eclipse.aether.util.repository.DefaultMirrorSelector();
            for (Mirror m : settings.getMirrors()) {
                mirrors.add(m.getId(), m.getUrl(), m.getLayout(), false, m.isBlocked(), m.getMirrorOf(), m.getMirrorOfLayouts());
            }
            session.setMirrorSelector(mirrors);
        }
        if (repos.isEmpty()) {
            repos.add(new RemoteRepository.Builder("central", "default", "https://repo.maven.apache.org/maven2")
                    .setReleasePolicy(new RepositoryPolicy(true, "daily", "warn"))
                    .setSnapshotPolicy(new RepositoryPolicy(false, "daily", "warn")).build());
        }
        repos = system.newResolutionRepositories(session, repos);

        RemoteRepositoryManager rrm = locator.getService(RemoteRepositoryManager.class);
        ProjectModelResolver resolver = new ProjectModelResolver(session, null, system, rrm, repos,
                ProjectBuildingRequest.RepositoryMerging.POM_DOMINANT, null);
        Properties sp = new Properties();
        sp.putAll(sys);
        Properties up = new Properties();
        up.putAll(user);
        DefaultModelBuildingRequest req = new DefaultModelBuildingRequest();
        req.setPomFile(new File(pom).getAbsoluteFile());
        req.setModelResolver(resolver);
        req.setSystemProperties(sp);
        req.setUserProperties(up);
        req.setValidationLevel(ModelBuildingRequest.VALIDATION_LEVEL_MAVEN_3_0);
        req.setProcessPlugins(false);
        req.setTwoPhaseBuilding(false);
        req.setLocationTracking(false);
        Map<String, Object> doc = new TreeMap<>();
        int status = 0;
        try {
            Model model = new DefaultModelBuilderFactory().newInstance().build(req).getEffectiveModel();
            doc.put("artifact", model.getGroupId() + ":" + model.getArtifactId() + ":pom:" + model.getVersion());
            doc.put("relocations", new ArrayList<>());
            List<Object> deps = new ArrayList<>();
            for (org.apache.maven.model.Dependency d : model.getDependencies()) {
                deps.add(json(toDependency(session, d)));
            }
            doc.put("dependencies", deps);
            List<Object> managed = new ArrayList<>();
            if (model.getDependencyManagement() != null) {
                for (org.apache.maven.model.Dependency d : model.getDependencyManagement().getDependencies()) {
                    managed.add(json(toDependency(session, d)));
                }
            }
            doc.put("managedDependencies", managed);
            List<Object> rs = new ArrayList<>();
            for (Repository r : model.getRepositories()) {
                rs.add((r.getId() == null ? "" : r.getId()) + "=" + (r.getUrl() == null ? "" : r.getUrl()));
            }
            doc.put("repositories", rs);
        } catch (ModelBuildingException e) {
            doc.put("artifact", null);
            List<Object> errors = new ArrayList<>();
            for (ModelProblem p : e.getProblems()) {
                if (p.getSeverity() != ModelProblem.Severity.WARNING) {
                    System.err.println("DescribeProject: " + p.getSeverity() + " " + p.getMessage());
                    errors.add(p.getSeverity().name());
                }
            }
            doc.put("error", errors);
            status = 1;
        }
        doc.put("problems", new ArrayList<>());
        System.out.println(write(doc, 0));
        System.exit(status);
    }

    /** maven-core's RepositoryUtils.toDependency. */
    static Dependency toDependency(DefaultRepositorySystemSession session, org.apache.maven.model.Dependency d) {
        ArtifactType type = session.getArtifactTypeRegistry().get(d.getType());
        String classifier = d.getClassifier();
        if ((classifier == null || classifier.isEmpty()) && type != null) {
            classifier = type.getClassifier();
        }
        String extension = type != null ? type.getExtension() : d.getType();
        Map<String, String> props = type != null ? new LinkedHashMap<>(type.getProperties()) : new LinkedHashMap<>();
        if (d.getSystemPath() != null && !d.getSystemPath().isEmpty()) {
            props.put("localPath", d.getSystemPath());
        }
        List<Exclusion> exclusions = new ArrayList<>();
        for (org.apache.maven.model.Exclusion e : d.getExclusions()) {
            exclusions.add(new Exclusion(e.getGroupId(), e.getArtifactId(), "*", "*"));
        }
        return new Dependency(new DefaultArtifact(d.getGroupId(), d.getArtifactId(), classifier, extension,
                d.getVersion(), props, type), d.getScope(), d.getOptional() != null ? d.isOptional() : null, exclusions);
    }

    static Map<String, Object> json(Dependency d) {
        Map<String, Object> m = new TreeMap<>();
        m.put("artifact", d.getArtifact().toString());
        m.put("scope", d.getScope());
        m.put("optional", d.getOptional());
        List<Object> ex = new ArrayList<>();
        for (Exclusion e : d.getExclusions()) {
            ex.add(e.getGroupId() + ":" + e.getArtifactId());
        }
        m.put("exclusions", ex);
        String path = d.getArtifact().getProperty("localPath", null);
        if (path != null) {
            m.put("systemPath", path);
        }
        return m;
    }

    @SuppressWarnings("unchecked")
    static String write(Object v, int depth) {
        if (v == null) {
            return "null";
        } else if (v instanceof Boolean) {
            return v.toString();
        } else if (v instanceof String) {
            StringBuilder sb = new StringBuilder("\"");
            for (char c : ((String) v).toCharArray()) {
                if (c == '"' || c == '\\') {
                    sb.append('\\').append(c);
                } else if (c < 0x20 || c > 0x7e) {
                    sb.append(String.format("\\u%04x", (int) c));
                } else {
                    sb.append(c);
                }
            }
            return sb.append('"').toString();
        } else if (v instanceof Map) {
            List<String> parts = new ArrayList<>();
            for (Map.Entry<String, Object> e : ((Map<String, Object>) v).entrySet()) {
                parts.add(write(e.getKey(), depth + 1) + ": " + write(e.getValue(), depth + 1));
            }
            return "{" + String.join(", ", parts) + "}";
        } else {
            List<String> parts = new ArrayList<>();
            for (Object o : (List<Object>) v) {
                parts.add(write(o, depth + 1));
            }
            return "[" + String.join(", ", parts) + "]";
        }
    }
}
