// Runs after the project is generated: a property that cannot make a working project fails the
// generation with the property and the fix; then .gitignore, which Maven's packaging would drop
// under its real name, gets it.
def project = new File(request.outputDirectory, request.artifactId)
def properties = request.properties

def javaKeywords = ['abstract', 'assert', 'boolean', 'break', 'byte', 'case', 'catch', 'char', 'class', 'const',
        'continue', 'default', 'do', 'double', 'else', 'enum', 'extends', 'final', 'finally', 'float', 'for', 'goto',
        'if', 'implements', 'import', 'instanceof', 'int', 'interface', 'long', 'native', 'new', 'package',
        'private', 'protected', 'public', 'return', 'short', 'static', 'strictfp', 'super', 'switch',
        'synchronized', 'this', 'throw', 'throws', 'transient', 'try', 'void', 'volatile', 'while', 'record',
        'var', 'yield', 'sealed', 'permits', 'true', 'false', 'null']
// the simple names the generated classes import, which a kind of the same name would hide
def importedNames = ['Map', 'Set', 'List', 'ArrayList', 'LinkedHashMap', 'Pattern', 'Duration', 'Test', 'Component',
        'Bean', 'Configuration', 'SpringApplication', 'SpringBootApplication', 'SpringBootTest', 'Autowired',
        'Nullable', 'NullMarked', 'ApiClient', 'V1Condition', 'V1ConfigMap', 'V1ObjectMeta', 'GenericKubernetesApi',
        'KubernetesApiResponse', 'CustomResource', 'CustomResourceList', 'Description', 'PrinterColumn',
        'ResourceCoordinates', 'Dependent', 'Cleaner', 'Conditions', 'ReconcileContext', 'Reconciler', 'Result',
        'Request', 'AdmissionRequest', 'AdmissionResult', 'AdmissionValidator', 'KubernetesTest', 'TestNamespace',
        'ReconcileRecorder', 'LocalApiServerConfiguration', 'Status', 'Spec']

def problems = []
def kind = properties.kind
if (!(kind ==~ /[A-Z][A-Za-z0-9]*/)) {
    problems << "kind '${kind}' is no Kubernetes kind: it names a Java class too, so give it in UpperCamelCase, letters and digits, such as -Dkind=Backup"
} else if (javaKeywords.contains(kind.toLowerCase())) {
    problems << "kind '${kind}' in lower case is a Java keyword, which the generated code uses as a controller name and variable: choose another kind"
} else if (importedNames.contains(kind)) {
    problems << "kind '${kind}' would hide the type of that name which the generated classes import: choose another kind"
}
def dnsLabel = /[a-z0-9]([-a-z0-9]*[a-z0-9])?/
if (!(properties.apiGroup ==~ /${dnsLabel}(\.${dnsLabel})+/)) {
    problems << "apiGroup '${properties.apiGroup}' is no API group: a DNS name of two or more lower-case labels, such as -DapiGroup=example.com"
}
if (!(properties.apiVersion ==~ /v[1-9][0-9]*((alpha|beta)[1-9][0-9]*)?/)) {
    problems << "apiVersion '${properties.apiVersion}' is no Kubernetes API version: v1, v1alpha1, v2beta3 and the like, such as -DapiVersion=v1alpha1"
}
if (!(properties.plural ==~ /[a-z][a-z0-9]*/)) {
    problems << "plural '${properties.plural}' is no resource name: lower-case letters and digits, such as -Dplural=backups"
}
if (problems) {
    // the folder may have held files of the user's before, so it stays
    throw new IllegalArgumentException("The project generated in ${project} cannot work; delete it and generate"
            + " it again with the fix:\n  " + problems.join("\n  "))
}

new File(project, 'gitignore').renameTo(new File(project, '.gitignore'))
