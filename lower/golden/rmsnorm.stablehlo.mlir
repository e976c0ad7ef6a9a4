module {
  func.func private @neuronfuse.rms_norm.impl_0(%arg0: tensor<?xf32>, %arg1: tensor<i32>, %arg2: tensor<?xf32>) -> tensor<?xf32> {
    %0 = "stablehlo.constant"() {value = dense<0.000000e+00> : tensor<f32>} : () -> tensor<f32>
    %1 = "stablehlo.constant"() {value = dense<9.99999974E-6> : tensor<f32>} : () -> tensor<f32>
    %2 = "stablehlo.constant"() {value = dense<1.000000e+00> : tensor<f32>} : () -> tensor<f32>
    %3 = "stablehlo.multiply"(%arg0, %arg0) : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
    %4 = "stablehlo.reduce"(%3, %0) ({
    ^bb0(%arg3: tensor<f32>, %arg4: tensor<f32>):
      %13 = "stablehlo.add"(%arg3, %arg4) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%13) : (tensor<f32>) -> ()
    }) {dimensions = array<i64: 0>} : (tensor<?xf32>, tensor<f32>) -> tensor<f32>
    %5 = "stablehlo.convert"(%arg1) : (tensor<i32>) -> tensor<f32>
    %6 = "stablehlo.divide"(%4, %5) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    %7 = "stablehlo.add"(%6, %1) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    %8 = "stablehlo.sqrt"(%7) : (tensor<f32>) -> tensor<f32>
    %9 = "stablehlo.divide"(%2, %8) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    %10 = "stablehlo.broadcast_in_dim"(%9) {broadcast_dimensions = array<i64>} : (tensor<f32>) -> tensor<?xf32>
    %11 = "stablehlo.multiply"(%arg0, %10) : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
    %12 = "stablehlo.multiply"(%11, %arg2) : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
    return %12 : tensor<?xf32>
  }
  func.func @rmsnorm_region0(%arg0: tensor<?xf32>, %arg1: tensor<i32>, %arg2: tensor<?xf32>) -> tensor<?xf32> {
    %0 = "stablehlo.composite"(%arg0, %arg1, %arg2) {composite_attributes = {eps = 9.99999974E-6 : f32, reduce_dims = array<i64: 0>}, decomposition = @neuronfuse.rms_norm.impl_0, name = "neuronfuse.rms_norm", version = 1 : i32} : (tensor<?xf32>, tensor<i32>, tensor<?xf32>) -> tensor<?xf32>
    return %0 : tensor<?xf32>
  }
}

