module {
  func.func private @neuronfuse.dot.impl_1(%arg0: tensor<?xf32>, %arg1: tensor<?x?xf32>) -> tensor<?xf32> {
    %0 = "stablehlo.constant"() {value = dense<0.000000e+00> : tensor<f32>} : () -> tensor<f32>
    %1 = "stablehlo.broadcast_in_dim"(%arg0) {broadcast_dimensions = array<i64: 1>} : (tensor<?xf32>) -> tensor<?x?xf32>
    %2 = "stablehlo.multiply"(%arg1, %1) : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
    %3 = "stablehlo.reduce"(%2, %0) ({
    ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>):
      %4 = "stablehlo.add"(%arg2, %arg3) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%4) : (tensor<f32>) -> ()
    }) {dimensions = array<i64: 1>} : (tensor<?x?xf32>, tensor<f32>) -> tensor<?xf32>
    return %3 : tensor<?xf32>
  }
  func.func @matmul_region1(%arg0: tensor<?xf32>, %arg1: tensor<?x?xf32>) -> tensor<?xf32> {
    %0 = "stablehlo.composite"(%arg0, %arg1) {composite_attributes = {reduce_dims = array<i64: 1>}, decomposition = @neuronfuse.dot.impl_1, name = "neuronfuse.dot", version = 1 : i32} : (tensor<?xf32>, tensor<?x?xf32>) -> tensor<?xf32>
    return %0 : tensor<?xf32>
  }
}

