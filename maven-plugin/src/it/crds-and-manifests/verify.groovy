// The CRD and the manifests, read as client-java reads them (the plugin module's test class
// path): the CRD on the class path and in the jar, the Deployment with the image and the
// namespace the build gave
import io.kubernetes.client.openapi.models.V1CustomResourceDefinition
import io.kubernetes.client.openapi.models.V1Deployment
import io.kubernetes.client.util.Yaml
import java.util.jar.JarFile

def crdFile = new File(basedir, 'target/classes/META-INF/kubernetes/crds/gizmos.it.kubereconciler.dev.yaml')
assert crdFile.isFile() : "no CRD at $crdFile"
def crd = Yaml.loadAs(crdFile, V1CustomResourceDefinition)
assert crd.spec.names.kind == 'Gizmo'
assert crd.spec.versions*.name == ['v1']
assert crd.spec.versions[0].schema.openAPIV3Schema.properties.spec.properties.size.type == 'string'

def jar = new JarFile(new File(basedir, 'target/crds-and-manifests-1.0.jar'))
assert jar.getEntry('META-INF/kubernetes/crds/gizmos.it.kubereconciler.dev.yaml') != null
jar.close()

def deployment = Yaml.loadAs(new File(basedir, 'target/kubernetes/deployment.yaml'), V1Deployment)
assert deployment.metadata.namespace == 'operators'
assert deployment.spec.template.spec.containers[0].image == 'registry.example/gizmo:1.0'
def manifestsCrd = Yaml.loadAs(new File(basedir, 'target/kubernetes/crds/gizmos.it.kubereconciler.dev.yaml'),
        V1CustomResourceDefinition)
assert manifestsCrd.metadata.name == 'gizmos.it.kubereconciler.dev'
true
