def log = new File(basedir, 'build.log').text
assert log.contains('No class in ')
assert log.contains('is annotated with @dev.kubereconciler.model.ResourceCoordinates: annotate each custom resource model class with @ResourceCoordinates')
assert !new File(basedir, 'target/classes/META-INF/kubernetes/crds').exists()
true
