module {
  func.func @matmul_region1(%arg0: tensor<?xf32>, %arg1: tensor<?x?xf32>) -> tensor<?xf32> {
    %0 = "mhlo.fusion"(%arg0, %arg1) ({
    ^bb0(%arg2: tensor<?xf32>, %arg3: tensor<?x?xf32>):
      %1 = "mhlo.constant"() {value = dense<0.000000e+00> : tensor<f32>} : () -> tensor<f32>
      %2 = "mhlo.broadcast_in_dim"(%arg2) {broadcast_dimensions = dense<1> : tensor<1xi64>} : (tensor<?xf32>) -> tensor<?x?xf32>
      %3 = "mhlo.multiply"(%arg3, %2) : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
      %4 = "mhlo.reduce"(%3, %1) ({
      ^bb0(%arg4: tensor<f32>, %arg5: tensor<f32>):
        %5 = "mhlo.add"(%arg4, %arg5) : (tensor<f32>, tensor<f32>) -> tensor<f32>
        "mhlo.return"(%5) : (tensor<f32>) -> ()
      }) {dimensions = dense<1> : tensor<1xi64>} : (tensor<?x?xf32>, tensor<f32>) -> tensor<?xf32>
      "mhlo.return"(%4) : (tensor<?xf32>) -> ()
    }) {FusionKind = "Dot", fusion_kind = #mhlo<fusion_kind kCustom>} : (tensor<?xf32>, tensor<?x?xf32>) -> tensor<?xf32>
    return %0 : tensor<?xf32>
  }
}

